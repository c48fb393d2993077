import { DEFAULT_CONFIRM_ABOVE_CENTS } from '../common/amount-ceiling';
import { DEFAULT_STORE_LOCALE, isCurrency, isStoreLocaleTag, type StoreLocale } from '../common/store-locale';
import type {
  AutoCloseView,
  DeviceConfigView,
  DiscountLimitsView,
  ReturnSettingsView,
  SafPolicy,
  SaleSettingsView,
  StoreProfileView,
  TillSettingsView,
} from '../common/bridge/contract';
import type { GatewayCredentials, GatewayTimeouts } from './gateway-client/client';
import { defaultGatewayTimeouts } from './gateway-client/client';
import type { Journal } from './journal/journal-protocol';
import type { Sealer } from './util/key-file';

/**
 * The lane's settings, kept in the journal database (one JSON value per key) so they share its
 * durability and its one writer. Reads come from memory; writes go through the journal worker.
 */

export type SaleSettings = {
  taxRatePercent: number;
  tipPrompt: boolean;
  tipPresetsPercent: number[];
  /** Credit sales at or above this (after approval) need a signature. Default 50.00. */
  signatureFloorCents: number;
  /** How long the card readers wait for a card. */
  cardWaitMs: number;
  /** How long the cardholder has for the PIN. */
  pinWaitMs: number;
  /** Print the customer receipt automatically when a ticket is paid and a printer is connected. */
  autoPrint: boolean;
  /**
   * The largest tip a cashier adds when completing a pre-authorization, as a share of the hold; above it
   * a manager approves. 20 %: the gateway's default bound on AdditionalTip, mirrored here.
   */
  preauthTipMaxPercent: number;
  /**
   * Chip fallback (Visa and Mastercard rules for chip-capable terminals): the swipe of a chip card
   * (service code 2xx/6xx) is refused with "insert the card" until its chip has failed this many times
   * in the same card wait; then the swipe goes as ChipFallbackSwipe. Default 1: one failed chip read is a
   * fallback condition, and a second insert of a dead chip only holds the line.
   */
  chipFallbackAfterFailures: number;
  /**
   * The sale screen confirms an amount above this before any tender starts: a barcode scanned into the
   * amount, or a finger that slipped, is not a sale. Default 1,000.00 (a manager raises it for a store
   * whose sales run larger).
   */
  confirmAboveCents: number;
};

/** What every sale screen reads of the sale settings (the `sale.settings` command and event). */
export function saleSettingsView(sale: SaleSettings): SaleSettingsView {
  return {
    taxRatePercent: sale.taxRatePercent,
    tipPrompt: sale.tipPrompt,
    tipPresetsPercent: [...sale.tipPresetsPercent],
    confirmAboveCents: sale.confirmAboveCents,
    chipFallbackAfterFailures: sale.chipFallbackAfterFailures,
  };
}

export type GatewaySettings = {
  /** `embedded`: the sandbox gateway the terminal starts itself (its address comes from the launcher). */
  mode: 'embedded' | 'remote';
  baseUrl: string;
  mid: number;
  cid: number;
  userName: string;
  appKey: string;
  appType: number;
  /** The password, sealed with the data folder's key (never stored in clear). */
  sealedPassword?: { ciphertext: string; iv: string; tag: string };
  timeouts: GatewayTimeouts;
};

export type RecorderSettings = { enabled: boolean };

/** The store's people (issue 20): with the time clock on, cashiers and managers clock in to sign in. */
export type PeopleSettings = { timeClock: boolean };

export type SettingsShape = {
  laneId: string;
  sale: SaleSettings;
  gateway: GatewaySettings;
  saf: SafPolicy;
  autoClose: AutoCloseView;
  devices: DeviceConfigView | null;
  recorder: RecorderSettings;
  /**
   * The merchant's IANA time zone as the gateway keeps it (learned when the gateway answers, kept for
   * when it does not); null until then. Receipts and screens show times in it (common/store-time.ts).
   */
  merchantTimeZone: string | null;
  people: PeopleSettings;
  /** Tills (docs/terminal.md "Tills"): the count's tolerance before a sign-off, the usual float. */
  till: TillSettingsView;
  /** The receipt's header and footer (store name, address, phone, return policy). */
  store: StoreProfileView;
  /** What a cashier may discount or reprice on a ticket without a manager. */
  discounts: DiscountLimitsView;
  /** Returns (docs/terminal.md "Returns"): where a return without a receipt puts the money. */
  returns: ReturnSettingsView;
  /** The store's locale and currency: receipts and reports print in it, screens start in it. */
  locale: StoreLocale;
};

export const defaultSaleSettings: SaleSettings = {
  taxRatePercent: 0,
  tipPrompt: false,
  tipPresetsPercent: [15, 18, 20],
  signatureFloorCents: 5_000,
  cardWaitMs: 60_000,
  pinWaitMs: 60_000,
  autoPrint: true,
  preauthTipMaxPercent: 20,
  chipFallbackAfterFailures: 1,
  confirmAboveCents: DEFAULT_CONFIRM_ABOVE_CENTS,
};

/**
 * A count off by more than 5.00 either way waits for a manager's sign-off (a common US store policy: small
 * differences are coins miscounted, larger ones are looked at); the float offered is 100.00.
 */
export const defaultTillSettings: TillSettingsView = { toleranceCents: 500, defaultFloatCents: 10_000 };
/** Until a manager names the store, its receipts carry the launcher's merchant name (receipt-printing.ts). */
export const defaultStoreProfile: StoreProfileView = {
  storeName: '',
  addressLines: [],
  phone: '',
  returnPolicy: '',
};

/**
 * A cashier gives up to 10 % off a line or a ticket alone and never changes a catalog price alone: a
 * usual floor-staff limit; a manager moves it (0 puts every discount through the manager).
 */
export const defaultDiscountLimits: DiscountLimitsView = {
  maxLineDiscountPercent: 10,
  maxTicketDiscountPercent: 10,
  priceOverrideNeedsApproval: true,
};

/**
 * A return without a receipt refunds in cash unless the store chooses store credit on a gift card (many
 * stores do, so a receipt-less return cannot turn goods taken from the shelf into cash).
 */
export const defaultReturnSettings: ReturnSettingsView = { noReceiptRefund: 'cash' };

/** Store-and-forward is off until a manager turns it on (issue 5). */
export const defaultSafPolicy: SafPolicy = {
  enabled: false,
  perTransactionLimitCents: 10_000,
  totalLimitCents: 50_000,
  maxAgeHours: 24,
};

/** A stored locale the terminal no longer knows (a downgrade) reads as the default, field by field. */
function storedLocale(stored: Partial<StoreLocale> | undefined): StoreLocale {
  return {
    locale: isStoreLocaleTag(stored?.locale) ? stored.locale : DEFAULT_STORE_LOCALE.locale,
    currency: isCurrency(stored?.currency) ? stored.currency : DEFAULT_STORE_LOCALE.currency,
  };
}

export type Settings = {
  readonly value: Readonly<SettingsShape>;
  set<K extends keyof SettingsShape>(key: K, value: SettingsShape[K]): Promise<void>;
  /** The gateway password (unsealed) or the launcher's. */
  gatewayPassword(): string;
  sealPassword(password: string): GatewaySettings['sealedPassword'];
  credentials(): GatewayCredentials;
};

export type GatewayDefaults = {
  baseUrl: string;
  credentials: GatewayCredentials;
  /** True when the launcher runs the embedded sandbox gateway: its address wins over a stored one. */
  embedded: boolean;
  timeouts?: Partial<GatewayTimeouts>;
};

export async function loadSettings(
  journal: Journal,
  sealer: Sealer,
  defaults: { laneId: string; gateway: GatewayDefaults; devices: DeviceConfigView | null; now: () => number },
): Promise<Settings> {
  const read = async <T>(key: string): Promise<T | undefined> => {
    const raw = await journal.getSetting(key);
    if (raw === undefined) return undefined;
    try {
      return JSON.parse(raw) as T;
    } catch {
      return undefined;
    }
  };
  const g = defaults.gateway;
  const storedGateway = await read<GatewaySettings>('gateway');
  const embeddedGateway: GatewaySettings = {
    mode: 'embedded',
    baseUrl: g.baseUrl,
    mid: g.credentials.mid,
    cid: g.credentials.cid,
    userName: g.credentials.UserName,
    appKey: g.credentials.AppKey,
    appType: g.credentials.AppType,
    timeouts: { ...defaultGatewayTimeouts, ...g.timeouts },
  };
  let gateway: GatewaySettings;
  if (!storedGateway) gateway = { ...embeddedGateway, mode: g.embedded ? 'embedded' : 'remote' };
  else if (storedGateway.mode === 'embedded' && g.embedded)
    // The embedded gateway listens on a new port every launch; keep only the tech's timeouts.
    gateway = {
      ...embeddedGateway,
      timeouts: { ...embeddedGateway.timeouts, ...storedGateway.timeouts, ...g.timeouts },
    };
  else
    gateway = {
      ...storedGateway,
      timeouts: { ...defaultGatewayTimeouts, ...storedGateway.timeouts, ...g.timeouts },
    };

  const value: SettingsShape = {
    laneId: (await read<string>('laneId')) ?? defaults.laneId,
    sale: { ...defaultSaleSettings, ...(await read<Partial<SaleSettings>>('sale')) },
    gateway,
    saf: { ...defaultSafPolicy, ...(await read<Partial<SafPolicy>>('saf')) },
    autoClose: (await read<AutoCloseView>('autoClose')) ?? { enrolled: false },
    devices: (await read<DeviceConfigView>('devices')) ?? defaults.devices,
    recorder: (await read<RecorderSettings>('recorder')) ?? { enabled: false },
    merchantTimeZone: (await read<string>('merchantTimeZone')) ?? null,
    people: { timeClock: false, ...(await read<Partial<PeopleSettings>>('people')) },
    till: { ...defaultTillSettings, ...(await read<Partial<TillSettingsView>>('till')) },
    store: { ...defaultStoreProfile, ...(await read<Partial<StoreProfileView>>('store')) },
    discounts: { ...defaultDiscountLimits, ...(await read<Partial<DiscountLimitsView>>('discounts')) },
    returns: { ...defaultReturnSettings, ...(await read<Partial<ReturnSettingsView>>('returns')) },
    locale: storedLocale(await read<Partial<StoreLocale>>('locale')),
  };

  const unseal = (s: NonNullable<GatewaySettings['sealedPassword']>): string =>
    sealer.open(
      {
        ciphertext: Buffer.from(s.ciphertext, 'base64'),
        iv: Buffer.from(s.iv, 'base64'),
        tag: Buffer.from(s.tag, 'base64'),
      },
      'gateway-password',
    );

  const settings: Settings = {
    value,
    async set(key, next) {
      await journal.setSetting(key, JSON.stringify(next), defaults.now());
      value[key] = next;
    },
    gatewayPassword() {
      const sealed = value.gateway.sealedPassword;
      if (value.gateway.mode === 'embedded' || !sealed) return g.credentials.Password;
      try {
        return unseal(sealed);
      } catch {
        // The key file was replaced: the tech must enter the password again.
        return '';
      }
    },
    sealPassword(password) {
      const s = sealer.seal(password, 'gateway-password');
      return {
        ciphertext: Buffer.from(s.ciphertext).toString('base64'),
        iv: Buffer.from(s.iv).toString('base64'),
        tag: Buffer.from(s.tag).toString('base64'),
      };
    },
    credentials() {
      return {
        AppKey: value.gateway.appKey,
        AppType: value.gateway.appType,
        mid: value.gateway.mid,
        cid: value.gateway.cid,
        UserName: value.gateway.userName,
        Password: settings.gatewayPassword(),
      };
    },
  };
  return settings;
}
