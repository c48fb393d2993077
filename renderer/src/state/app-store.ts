import { createStore, type StoreApi } from 'zustand/vanilla';
import type {
  Bridge,
  BridgeError,
  BridgeResult,
  GatewayStatusView,
  ManagerApproval,
  ReversalQueueView,
  SafView,
  Session,
  TerminalStatusView,
} from '../../../common/bridge/contract';
import { i18n, messageFor } from '../i18n/i18n';
import { formatCents } from '../format/money';
import { homeView, viewsFor, type View } from './views';

export type Connection = 'connecting' | 'open' | 'closed' | 'refused' | 'none';

export type Notice = { id: number; tone: 'info' | 'success' | 'error'; text: string };

/** A pending request for a manager's PIN (refund, void, abandon while a cashier is signed in). */
export type ApprovalRequest = {
  reason: string;
  error?: string;
  resolve: (approval: ManagerApproval | null) => void;
};

export type AppState = {
  connection: Connection;
  connectionMessage?: string;
  session: Session | null;
  status: TerminalStatusView | null;
  gateway: GatewayStatusView | null;
  reversals: ReversalQueueView | null;
  saf: SafView | null;
  view: View;
  simulatorOpen: boolean;
  notices: Notice[];
  approval: ApprovalRequest | null;
  signInError?: string;
  signingIn: boolean;

  init(): () => void;
  setConnection(connection: Connection, message?: string): void;
  refreshStatus(): Promise<void>;
  /** Signs in; answers the session (it may still have to choose its PIN), or null with `signInError`. */
  signIn(pin: string): Promise<Session | null>;
  /**
   * Replaces the signed-in employee's PIN (`currentPin` omitted: the one-time PIN they just signed in
   * with); answers the error's words, or null when it is done.
   */
  changePin(newPin: string, currentPin?: string): Promise<string | null>;
  signOut(): Promise<void>;
  navigate(view: View): void;
  toggleSimulator(open?: boolean): void;
  notify(tone: Notice['tone'], text: string): void;
  dismiss(id: number): void;
  /**
   * Runs a command that needs a manager: directly when a manager is signed in, otherwise after asking for
   * the manager's PIN (and again, with the reason, when the PIN was not a manager's). Resolves undefined
   * when the cashier cancels the PIN dialog.
   */
  withManager<T>(
    reason: string,
    run: (approval: ManagerApproval | undefined) => Promise<BridgeResult<T>>,
    options?: { always?: boolean },
  ): Promise<BridgeResult<T> | undefined>;
  answerApproval(approval: ManagerApproval | null): void;
};

export type AppStore = StoreApi<AppState>;

/**
 * The one-time PIN an employee just signed in with, for the PIN change that must follow (the core asks for
 * it as proof). Kept outside the store's state, so nothing that renders or inspects state sees it; gone
 * once the change is made or the session ends.
 */
let justSignedInWith: string | undefined;

let noticeId = 0;

/**
 * An error in plain words: in the window's language when the core named its words (messageId, the
 * `errors` catalog; an amount's value in cents is written as money), else its message as the core said
 * it, and each of its problems the message does not already say.
 */
export function describeError(error: BridgeError): string {
  if (error.messageId !== undefined) {
    const params: Record<string, string | number> = { ...error.params };
    // A value in cents is written as money under its name less "Cents" (amountCents: {{amount}}).
    for (const [name, value] of Object.entries(error.params ?? {}))
      if (name.endsWith('Cents') && typeof value === 'number') params[name.slice(0, -5)] = formatCents(value);
    const said = messageFor(`errors:${error.messageId}`, params);
    if (said !== undefined) return said;
  }
  const more = (error.problems ?? []).filter((p) => !error.message.includes(p));
  return more.length > 0 ? `${error.message} ${more.join(' ')}` : error.message;
}

export function createAppStore(bridge: Bridge, connection: Connection = 'open'): AppStore {
  return createStore<AppState>()((set, get) => {
    const askManager = (reason: string, error?: string): Promise<ManagerApproval | null> =>
      new Promise((resolve) => {
        set({ approval: { reason, ...(error ? { error } : {}), resolve } });
      });

    return {
      connection,
      session: null,
      status: null,
      gateway: null,
      reversals: null,
      saf: null,
      view: 'sale',
      simulatorOpen: true,
      notices: [],
      approval: null,
      signingIn: false,

      init() {
        const offs = [
          bridge.on('session.changed', (session) => {
            const before = get().session;
            // A session that ends takes its confirmations with it: the next person starts with none.
            set(before && !session ? { session, notices: [] } : { session });
            if (session && (!before || before.role !== session.role)) set({ view: homeView(session.role) });
          }),
          bridge.on('gateway.status', (gateway) => set({ gateway })),
          bridge.on('reversals.updated', (reversals) => set({ reversals })),
          bridge.on('saf.updated', (saf) => set({ saf })),
          bridge.on('devices.status', (d) => {
            const status = get().status;
            if (!status) return;
            const devices = status.devices.some((x) => x.role === d.role)
              ? status.devices.map((x) => (x.role === d.role ? d : x))
              : [...status.devices, d];
            set({ status: { ...status, devices } });
          }),
        ];
        void get().refreshStatus();
        return () => {
          for (const off of offs) off();
        };
      },

      setConnection(next, message) {
        const was = get().connection;
        set({ connection: next, ...(message !== undefined ? { connectionMessage: message } : {}) });
        // The core keeps one session per connection: a new socket starts signed out.
        if (next === 'open' && was !== 'open') {
          set({ session: null });
          void get().refreshStatus();
        }
      },

      async refreshStatus() {
        const r = await bridge.send('terminal.status', {});
        if (!r.ok) return;
        set({
          status: r.value,
          session: r.value.session,
          gateway: r.value.gateway,
          ...(r.value.session && !viewsFor(r.value.session.role).includes(get().view)
            ? { view: homeView(r.value.session.role) }
            : {}),
        });
      },

      async signIn(pin) {
        set({ signingIn: true, signInError: undefined });
        const r = await bridge.send('session.signIn', { pin });
        if (!r.ok) {
          set({ signingIn: false, signInError: describeError(r.error) });
          return null;
        }
        justSignedInWith = r.value.mustChangePin ? pin : undefined;
        set({ signingIn: false, session: r.value, view: homeView(r.value.role) });
        void get().refreshStatus();
        return r.value;
      },

      async changePin(newPin, currentPin) {
        const proof = currentPin ?? justSignedInWith ?? '';
        const r = await bridge.send('session.changePin', { currentPin: proof, newPin });
        if (!r.ok) return describeError(r.error);
        justSignedInWith = undefined;
        set({ session: r.value });
        // The time clock is on and they have not clocked in: the PIN is saved, the session ended.
        if (r.value === null) get().notify('success', i18n.t('common:changePin.savedClockIn'));
        return null;
      },

      async signOut() {
        justSignedInWith = undefined;
        await bridge.send('session.signOut', {});
        // The notices confirmed what this person did; the next one to sign in did none of it.
        set({ session: null, approval: null, notices: [] });
      },

      navigate(view) {
        const session = get().session;
        if (session && viewsFor(session.role).includes(view)) set({ view });
      },

      toggleSimulator(open) {
        set({ simulatorOpen: open ?? !get().simulatorOpen });
      },

      notify(tone, text) {
        const id = ++noticeId;
        set({ notices: [...get().notices.slice(-3), { id, tone, text }] });
        // Notices are confirmations, not errors to act on: they leave on their own.
        setTimeout(() => get().dismiss(id), tone === 'error' ? 8000 : 4000);
      },

      dismiss(id) {
        set({ notices: get().notices.filter((n) => n.id !== id) });
      },

      async withManager(reason, run, options = {}) {
        if (!options.always && get().session?.role === 'manager') return run(undefined);
        let error: string | undefined;
        for (;;) {
          const approval = await askManager(reason, error);
          if (!approval) return undefined;
          const r = await run(approval);
          if (!r.ok && (r.error.code === 'forbidden' || r.error.code === 'unauthorized')) {
            error =
              r.error.message.length > 0
                ? describeError(r.error)
                : i18n.t('common:managerApproval.notManager');
            continue;
          }
          return r;
        }
      },

      answerApproval(approval) {
        const pending = get().approval;
        set({ approval: null });
        pending?.resolve(approval);
      },
    };
  });
}
