import { Type, type Static } from 'typebox';
import { Compile } from 'typebox/compile';

/**
 * The frames a browser-mode client may send (docs/bridge.md "Browser mode: the wire protocol"), as a
 * schema every frame is checked against before any of it is read: a socket delivers whatever JSON (or
 * not JSON) a local process writes, and one `null` used to be read as `null.type` inside the socket's
 * listener, which took the whole terminal down mid-sale. Fields beyond these are ignored (a newer client
 * may send more); the payload is the dispatcher's to check, against its command's own schema.
 */
const Proof = Type.String({ maxLength: 512 });

const HelloFrame = Type.Object({
  type: Type.Literal('hello'),
  secret: Type.Optional(Proof),
  launchToken: Type.Optional(Proof),
  pageKey: Type.Optional(Proof),
  contractVersion: Type.Integer(),
});

const CallFrame = Type.Object({
  type: Type.Literal('call'),
  // The client numbers its calls; the answer carries the number back.
  id: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
  // Any name: one the terminal does not know is answered `invalid`, as the dispatcher does.
  command: Type.String({ maxLength: 200 }),
  // Absent is the dispatcher's "the payload must be an object", an answer rather than a refusal.
  payload: Type.Optional(Type.Unknown()),
});

const ClientFrame = Type.Union([HelloFrame, CallFrame]);

export type ClientFrame = Static<typeof ClientFrame>;

const check = Compile(ClientFrame);

/** A text frame read as a client frame, or why it is not one (words for the `refused` answer). */
export function readClientFrame(text: string): { ok: true; frame: ClientFrame } | { ok: false; why: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, why: 'Frames are JSON.' };
  }
  if (!check.Check(value)) return { ok: false, why: 'Not a frame of the bridge protocol.' };
  return { ok: true, frame: value };
}
