import { Type, type Static } from 'typebox';
import { withBase } from './common';

export const BusinessSettingsResponse = withBase({
  CardDifferenceEnabled: Type.Boolean(),
  CardDifferencePercent: Type.Number(),
  SurchargeEnabled: Type.Boolean(),
  SurchargePercent: Type.Number(),
  ThreeDSecureEnabled: Type.Boolean(),
});
export type BusinessSettingsResponse = Static<typeof BusinessSettingsResponse>;
