import { useCallback, useEffect, useRef, useState } from 'react';
import type { BridgeError, CommandName, CommandPayload, CommandValue } from '../../../common/bridge/contract';
import { describeError } from './app-store';
import { useBridge } from './context';

export type Loaded<T> = {
  data: T | undefined;
  error: string | undefined;
  errorCode: BridgeError['code'] | undefined;
  loading: boolean;
  reload: () => Promise<void>;
  setData: (value: T) => void;
};

/**
 * Reads one command's answer for a screen (manager and tech screens hold their data locally: nothing
 * else needs it). `key` changes re-read it; `reload` re-reads on demand.
 */
export function useCommand<K extends CommandName>(
  command: K,
  payload: CommandPayload<K>,
  key: string = '',
): Loaded<CommandValue<K>> {
  const bridge = useBridge();
  const [data, setData] = useState<CommandValue<K> | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [errorCode, setErrorCode] = useState<BridgeError['code'] | undefined>(undefined);
  const [loading, setLoading] = useState(true);
  const payloadRef = useRef(payload);
  payloadRef.current = payload;
  const seq = useRef(0);

  const reload = useCallback(async () => {
    const mine = ++seq.current;
    setLoading(true);
    const r = await bridge.send(command, payloadRef.current);
    // A later reload superseded this one: its answer wins.
    if (mine !== seq.current) return;
    setLoading(false);
    if (r.ok) {
      setData(r.value);
      setError(undefined);
      setErrorCode(undefined);
    } else {
      setError(describeError(r.error));
      setErrorCode(r.error.code);
    }
  }, [bridge, command]);

  useEffect(() => {
    void reload();
  }, [reload, key]);

  return { data, error, errorCode, loading, reload, setData };
}

/** Runs a command from a button; `busy` while it runs, its error kept for the screen. */
export function useAction() {
  const bridge = useBridge();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const run = useCallback(
    async <K extends CommandName>(
      command: K,
      payload: CommandPayload<K>,
    ): Promise<CommandValue<K> | undefined> => {
      setBusy(true);
      setError(undefined);
      const r = await bridge.send(command, payload);
      setBusy(false);
      if (r.ok) return r.value;
      setError(describeError(r.error));
      return undefined;
    },
    [bridge],
  );
  return { run, busy, error, setError };
}
