// The Reporting group's reports, one file each beside this one; what they share (sums, paging, entities,
// card words) is shared.ts.
export { authorizationLog } from './authorization-log';
export { batchDetail } from './batch-detail';
export { batchSummaryByEntity } from './batch-summary-by-entity';
export { batchSummaryByMerchant } from './batch-summary-by-merchant';
export { cardSummary } from './card-summary';
export { depositsSummary } from './deposits-summary';
export { chargebacks, retrievals } from './disputes';
export { cardDescription, maskedCard, type EntityView, type Page, type Paged, type Range } from './shared';
