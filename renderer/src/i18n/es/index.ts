import { FIGURE_LABELS_IN, TENDER_NAMES_IN, VOIDED_TENDER_IN } from '../../../../common/figure-labels';
import type { en } from '../en';
import type { Messages } from '../messages';
import { app } from './app';
import { cards } from './cards';
import { audit } from './audit';
import { backOfficeErrors } from './back-office-errors';
import { batch } from './batch';
import { catalog } from './catalog';
import { common } from './common';
import { customer } from './customer';
import { devices } from './devices';
import { employees } from './employees';
import { errors } from './errors';
import { preauths } from './preauths';
import { returns } from './returns';
import { links } from './links';
import { queues } from './queues';
import { reports } from './reports';
import { sale } from './sale';
import { saleErrors } from './sale-errors';
import { settings } from './settings';
import { signin } from './signin';
import { tech } from './tech';
import { till } from './till';
import { transactions } from './transactions';

/** The Spanish catalogs: every namespace and message of the English ones (messages.ts). */
export const es: Messages<typeof en> = {
  common,
  app,
  signin,
  /** The core's refusals; the sale's and the back office's in their own files. */
  errors: { ...errors, ...backOfficeErrors, sale: saleErrors },
  devices,
  till,
  employees,
  settings,
  sale,
  customer,
  tech,
  transactions,
  returns,
  cards,
  preauths,
  batch,
  reports,
  catalog,
  links,
  queues,
  audit,
  figures: {
    ...FIGURE_LABELS_IN.es,
    tenders: { ...TENDER_NAMES_IN.es },
    voidedTender: VOIDED_TENDER_IN.es,
  },
};
