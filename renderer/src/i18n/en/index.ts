import { FIGURE_LABELS_IN, TENDER_NAMES_IN } from '../../../../common/figure-labels';
import { app } from './app';
import { common } from './common';
import { customer } from './customer';
import { devices } from './devices';
import { employees } from './employees';
import { errors } from './errors';
import { sale } from './sale';
import { saleErrors } from './sale-errors';
import { settings } from './settings';
import { signin } from './signin';
import { till } from './till';

/** The English catalogs, one namespace per screen area: the source every other language mirrors. */
export const en = {
  common,
  app,
  signin,
  /** The core's refusals; the sale's in their own file (sale-errors.ts). */
  errors: { ...errors, sale: saleErrors },
  devices,
  till,
  employees,
  settings,
  sale,
  customer,
  /** The money figures' labels: common/figure-labels.ts, shared with the printed reports. */
  figures: { ...FIGURE_LABELS_IN.en, tenders: { ...TENDER_NAMES_IN.en } },
};
