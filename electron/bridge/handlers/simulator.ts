import type { SimulatorStateView } from '../../../common/bridge/contract';
import { SCRIPTED_SIGNATURE } from '../../../native/simulators/signature-pad-simulator';
import { BridgeFailure } from '../../../common/bridge/failure';
import type { CoreServices, HandlerSlice } from './services';

/** The sandbox's device-simulator panel (sandbox with simulated devices only). */
export function simulatorHandlers(s: CoreServices) {
  const { devices } = s;
  const sim = () => {
    if (!s.config.sandbox || !devices.simulated)
      throw new BridgeFailure(
        'unavailable',
        'The device simulator exists only in the sandbox with simulated devices.',
      );
    return devices.simulated.controls;
  };
  const simState = async (work: () => unknown): Promise<SimulatorStateView> => {
    try {
      await work();
    } catch (error) {
      if (error instanceof BridgeFailure) throw error;
      throw new BridgeFailure('device', error instanceof Error ? error.message : String(error));
    }
    return devices.simulatorState();
  };

  return {
    'simulator.state': () => Promise.resolve(devices.simulatorState()),
    'simulator.swipe': (p) => simState(() => sim().swipe(p.pan, p.badRead === true ? { badRead: true } : {})),
    'simulator.insert': (p) =>
      simState(() => {
        if (!sim().insert(p.pan))
          throw new BridgeFailure('conflict', 'The reader is not waiting for a card.');
      }),
    'simulator.tap': (p) =>
      simState(() => {
        if (!sim().tap(p.pan)) throw new BridgeFailure('conflict', 'The reader is not waiting for a card.');
      }),
    'simulator.removeCard': () =>
      simState(() => {
        if (!sim().removeCard()) throw new BridgeFailure('conflict', 'No card is in the chip slot.');
      }),
    'simulator.typePin': (p) =>
      simState(() => {
        if (!sim().typePin(p.pin))
          throw new BridgeFailure('conflict', 'The PIN pad is not asking for a PIN.');
      }),
    'simulator.cancelOnPad': () => simState(() => sim().cancelOnPad()),
    'simulator.sign': () =>
      simState(async () => {
        await sim().sign(SCRIPTED_SIGNATURE);
        // The pad's bytes reach the driver a tick after they are written; answer once they have.
        await new Promise((r) => setTimeout(r, 25));
      }),
    'simulator.setPaper': (p) => simState(() => sim().setPaper(p.paper)),
    'simulator.setCoverOpen': (p) => simState(() => sim().setCoverOpen(p.open)),
    'simulator.unplug': (p) => simState(() => sim().unplug(p.role)),
    'simulator.replug': (p) => simState(() => sim().replug(p.role)),
    'simulator.scan': (p) =>
      simState(async () => {
        sim();
        await devices.simulatorScan({ symbology: p.symbology, data: p.data }, p.via);
        // The scanner's bytes reach the driver a tick after they are written; answer once they have.
        await new Promise((r) => setTimeout(r, 25));
      }),
  } satisfies HandlerSlice<'simulator'>;
}
