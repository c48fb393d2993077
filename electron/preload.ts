import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import {
  BRIDGE_GLOBAL,
  IPC_CALL_CHANNEL,
  IPC_EVENT_CHANNEL,
  type Bridge,
  type BridgeResult,
  type CommandName,
  type CommandPayload,
  type CommandValue,
  type EventName,
  type Events,
} from '../common/bridge/contract';

/**
 * The one object the renderer gets (`window.tillpoint`): the bridge contract and nothing else — no
 * ipcRenderer, no Node. `satisfies Bridge` makes the compiler hold it to the contract.
 */
const api = {
  send<K extends CommandName>(
    command: K,
    payload: CommandPayload<K>,
  ): Promise<BridgeResult<CommandValue<K>>> {
    return ipcRenderer.invoke(IPC_CALL_CHANNEL, command, payload) as Promise<BridgeResult<CommandValue<K>>>;
  },
  on<E extends EventName>(event: E, listener: (payload: Events[E]) => void): () => void {
    const handler = (_e: IpcRendererEvent, name: unknown, payload: unknown): void => {
      if (name === event) listener(payload as Events[E]);
    };
    ipcRenderer.on(IPC_EVENT_CHANNEL, handler);
    return () => {
      ipcRenderer.removeListener(IPC_EVENT_CHANNEL, handler);
    };
  },
} satisfies Bridge;

contextBridge.exposeInMainWorld(BRIDGE_GLOBAL, api);
