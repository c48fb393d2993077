import { FIGURE_LABELS_IN, TENDER_NAMES_IN } from '../../../../common/figure-labels';
import type { en } from '../en';
import type { Messages } from '../messages';
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

/** The Spanish catalogs: every namespace and message of the English ones (messages.ts). */
export const es: Messages<typeof en> = {
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
  figures: { ...FIGURE_LABELS_IN.es, tenders: { ...TENDER_NAMES_IN.es } },
};
