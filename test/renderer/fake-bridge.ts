import type {
  Bridge,
  BridgeResult,
  CommandName,
  CommandPayload,
  CommandValue,
  EventName,
  Events,
} from '../../common/bridge/contract';

type Handler<K extends CommandName> = (
  payload: CommandPayload<K>,
) => BridgeResult<CommandValue<K>> | Promise<BridgeResult<CommandValue<K>>>;

/**
 * An in-memory bridge for the renderer's store tests: each test answers the commands it cares about and
 * pushes events by hand. Unanswered commands fail with `unavailable`, so a store that calls something
 * unexpected shows up in the call log instead of hanging.
 */
export class FakeBridge implements Bridge {
  readonly calls: { command: CommandName; payload: unknown }[] = [];
  private handlers = new Map<CommandName, (payload: unknown) => unknown>();
  private listeners = new Map<EventName, Set<(payload: unknown) => void>>();

  handle<K extends CommandName>(command: K, handler: Handler<K>): this {
    this.handlers.set(command, handler as (payload: unknown) => unknown);
    return this;
  }

  /** Answers a command with a value every time. */
  answer<K extends CommandName>(command: K, value: CommandValue<K>): this {
    return this.handle(command, () => ({ ok: true, value }));
  }

  async send<K extends CommandName>(
    command: K,
    payload: CommandPayload<K>,
  ): Promise<BridgeResult<CommandValue<K>>> {
    this.calls.push({ command, payload });
    const h = this.handlers.get(command);
    if (!h) return { ok: false, error: { code: 'unavailable', message: `no fake for ${command}` } };
    return (await h(payload)) as BridgeResult<CommandValue<K>>;
  }

  on<E extends EventName>(event: E, listener: (payload: Events[E]) => void): () => void {
    const set = this.listeners.get(event) ?? new Set();
    this.listeners.set(event, set);
    const l = listener as (payload: unknown) => void;
    set.add(l);
    return () => set.delete(l);
  }

  emit<E extends EventName>(event: E, payload: Events[E]): void {
    for (const l of this.listeners.get(event) ?? []) l(payload);
  }

  called(command: CommandName): unknown[] {
    return this.calls.filter((c) => c.command === command).map((c) => c.payload);
  }
}
