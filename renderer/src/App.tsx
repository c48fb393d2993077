import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageToggle } from './i18n/LanguageToggle';
import { ChangePinDialog } from './ui/ChangePinDialog';
import { ManagerPinDialog } from './ui/ManagerPinDialog';
import { useApp, useAppStore, useSale } from './state/context';
import { viewsFor, type View } from './state/views';
import { SignIn } from './screens/SignIn';
import { SaleScreen } from './screens/cashier/SaleScreen';
import { TransactionsScreen } from './screens/cashier/TransactionsScreen';
import { ReturnsScreen } from './screens/cashier/ReturnsScreen';
import { CardServicesScreen } from './screens/cashier/CardServicesScreen';
import { PreauthScreen } from './screens/cashier/PreauthScreen';
import { TillScreen } from './screens/cashier/TillScreen';
import { TillsScreen } from './screens/manager/TillsScreen';
import { useTillStatus } from './state/use-till';
import { BatchScreen } from './screens/manager/BatchScreen';
import { ReportsScreen } from './screens/manager/ReportsScreen';
import { SettingsScreen } from './screens/manager/SettingsScreen';
import { CatalogScreen } from './screens/manager/CatalogScreen';
import { PaymentLinksScreen } from './screens/manager/PaymentLinksScreen';
import { SafScreen } from './screens/manager/SafScreen';
import { AuditScreen } from './screens/manager/AuditScreen';
import { EmployeesScreen } from './screens/manager/EmployeesScreen';
import { DevicesScreen } from './screens/tech/DevicesScreen';
import { GatewayScreen } from './screens/tech/GatewayScreen';
import { DiagnosticsScreen } from './screens/tech/DiagnosticsScreen';
import { SimulatorPanel } from './screens/SimulatorPanel';
import { deviceTrouble } from './format/devices';
import { formatCents } from './format/money';

const screens: Record<View, () => React.JSX.Element> = {
  sale: SaleScreen,
  till: TillScreen,
  tills: TillsScreen,
  transactions: TransactionsScreen,
  returns: ReturnsScreen,
  cards: CardServicesScreen,
  preauths: PreauthScreen,
  batch: BatchScreen,
  reports: ReportsScreen,
  catalog: CatalogScreen,
  settings: SettingsScreen,
  links: PaymentLinksScreen,
  saf: SafScreen,
  audit: AuditScreen,
  employees: EmployeesScreen,
  devices: DevicesScreen,
  gateway: GatewayScreen,
  diagnostics: DiagnosticsScreen,
};

export function NotConnected({ message }: { message: string }) {
  const { t } = useTranslation('app');
  return (
    <main className="signin">
      <h1>{t('brand')}</h1>
      <p role="alert">{message}</p>
    </main>
  );
}

function TopBar() {
  const { t } = useTranslation('app');
  const session = useApp((s) => s.session);
  const status = useApp((s) => s.status);
  const gateway = useApp((s) => s.gateway);
  const reversals = useApp((s) => s.reversals?.pending ?? s.status?.reversals.pending ?? 0);
  const saf = useApp((s) => s.saf);
  const view = useApp((s) => s.view);
  const trouble = deviceTrouble(status?.devices ?? []);
  const paying = useSale((s) => s.phase === 'paying' || s.phase === 'signature');
  const app = useAppStore();
  const [changingPin, setChangingPin] = useState(false);
  const till = useTillStatus();
  const online = gateway?.online ?? true;
  const exposure = saf?.exposureCents ?? status?.saf.exposureCents ?? 0;
  // A notice shows over the brand and the lane's name for its few seconds (see Notices).
  const noticeShown = useApp((s) => s.notices.length > 0);
  return (
    <header className="topbar">
      <div className="brand-slot">
        <span className={noticeShown ? 'brand-group brand-hidden' : 'brand-group'}>
          <span className="brand">{t('brand')}</span>
          {status ? <span className="chip">{t('lane', { lane: status.laneId })}</span> : null}
          {status?.sandbox ? <span className="chip chip-warn">{t('sandbox')}</span> : null}
        </span>
        <Notices />
      </div>
      <span
        className={`chip ${online ? '' : 'chip-bad'}`}
        role="status"
        aria-label={online ? t('gatewayOnline') : t('gatewayOffline')}
      >
        {online ? t('online') : t('offline')}
      </span>
      {reversals > 0 ? <span className="chip chip-warn">{t('reversals', { count: reversals })}</span> : null}
      {exposure > 0 ? (
        <span className="chip chip-warn">{t('offlineExposure', { amount: formatCents(exposure) })}</span>
      ) : null}
      {/* Device trouble where the cashier looks, before a sale needs the device. */}
      <span className="trouble" role="status" aria-label={t('deviceProblems')}>
        {trouble.map((t) => (
          <span key={t.role} className="chip chip-bad">
            {t.text}
          </span>
        ))}
      </span>
      {session && paying && view !== 'sale' ? (
        // A payment runs while this window shows another screen: one touch back to it.
        <button
          type="button"
          className="btn btn-small chip-action"
          onClick={() => app.getState().navigate('sale')}
        >
          {t('paymentInProgress')}
        </button>
      ) : null}
      {till ? (
        <span className={`chip ${till.active ? '' : 'chip-warn'}`} data-testid="till-chip">
          {till.active ? t('tillOpen', { tillId: till.active.tillId }) : t('noTill')}
        </span>
      ) : null}
      {session ? (
        <>
          {/* The name alone: "Signed in:" cost a second header row at 1024 px, pushing the screens down. */}
          <span
            className="who"
            aria-label={t('signedIn', { name: session.name })}
            title={t('signedIn', { name: session.name })}
          >
            {session.name}
          </span>
          {session.mustChangePin ? null : (
            <button
              type="button"
              className="btn btn-small"
              aria-label={t('changeMyPin')}
              onClick={() => setChangingPin(true)}
            >
              {t('myPin')}
            </button>
          )}
          <button type="button" className="btn btn-small" onClick={() => void app.getState().signOut()}>
            {t('signOut')}
          </button>
        </>
      ) : null}
      <LanguageToggle />
      {changingPin && session ? <ChangePinDialog onClose={() => setChangingPin(false)} /> : null}
    </header>
  );
}

function Nav() {
  const { t } = useTranslation('app');
  const session = useApp((s) => s.session);
  const view = useApp((s) => s.view);
  const app = useAppStore();
  // A one-time PIN's session chooses its own PIN first: no screens until then.
  if (!session || session.mustChangePin) return null;
  return (
    <nav className="nav" aria-label={t('screens')}>
      {viewsFor(session.role).map((v) => (
        <button
          key={v}
          type="button"
          aria-current={v === view ? 'page' : undefined}
          onClick={() => app.getState().navigate(v)}
        >
          {t(`views.${v}`)}
        </button>
      ))}
    </nav>
  );
}

/**
 * Confirmations ("Refunded $10.00.") in the top bar, over the brand's slot (the brand, the lane's and the
 * sandbox's chips, which say nothing that changes, and the free room after them) while one shows: never
 * over a row, a button or Sign in (a floating toast covered the table's rows and, after sign-out, the
 * Sign in button), and never a taller or shorter bar, since the slot's size does not change (a bar that
 * grew pushed the sale screen's total below the fold at 1024×768). The brand alone left a cashier's full
 * bar at 1024 px about 120 px: "Refunded $5.00 in cash: the drawer is open." was cut off. The newest one
 * shows, in two lines at most (its whole text stays in the live region for a screen reader, and in its
 * title); each leaves by itself (app-store.ts `notify`).
 */
function Notices() {
  const notice = useApp((s) => s.notices.at(-1));
  return (
    <div className="notices" role="status" aria-live="polite">
      {notice ? (
        <div key={notice.id} className={`notice notice-${notice.tone}`} title={notice.text}>
          {notice.text}
        </div>
      ) : null}
    </div>
  );
}

function ConnectionBanner() {
  const { t } = useTranslation('app');
  const connection = useApp((s) => s.connection);
  const message = useApp((s) => s.connectionMessage);
  if (connection === 'open' || connection === 'none') return null;
  const text =
    connection === 'refused'
      ? t('refused', { reason: message ?? t('reloadPage') })
      : connection === 'connecting'
        ? t('connecting')
        : t('lost');
  return (
    <div className="banner" role="alert">
      {text}
    </div>
  );
}

export function App() {
  const { t } = useTranslation('app');
  const session = useApp((s) => s.session);
  const view = useApp((s) => s.view);
  const mainRef = useRef<HTMLElement>(null);
  const Screen = screens[view];

  // A new screen starts with its heading focused, so a screen reader announces where the user is and
  // Tab continues from the top of the screen's content.
  useEffect(() => {
    const target =
      mainRef.current?.querySelector<HTMLElement>('[data-autofocus]') ??
      mainRef.current?.querySelector<HTMLElement>('h1');
    target?.focus();
  }, [view, session?.role]);

  return (
    <div className="app">
      <a className="skip-link" href="#main">
        {t('skip')}
      </a>
      <TopBar />
      <Nav />
      <main id="main" ref={mainRef} tabIndex={-1}>
        <ConnectionBanner />
        {session && !session.mustChangePin ? <Screen /> : <SignIn />}
      </main>
      <SimulatorPanel />
      <ManagerPinDialog />
    </div>
  );
}
