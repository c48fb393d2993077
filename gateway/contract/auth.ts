import { Type, type Static } from 'typebox';
import { withBase } from './common';

export const AuthResponse = withBase({
  ApiKey: Type.String({ description: 'id of the issued token' }),
  Token: Type.String({ description: 'signed bearer token; send as Authorization: Bearer <Token>' }),
  ExpiresOn: Type.String({ format: 'date-time' }),
});
export type AuthResponse = Static<typeof AuthResponse>;
