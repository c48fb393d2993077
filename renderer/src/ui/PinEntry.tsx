import type { Dispatch, Ref, SetStateAction } from 'react';
import { ErrorAlert } from './fields';
import { Keypad } from './Keypad';

/** PINs are set 4 to 8 digits long (Settings), so neither the field nor the keypad takes a ninth. */
const maxPinLength = 8;

type PinEntryProps = {
  id: string;
  label: string;
  keypadLabel: string;
  pin: string;
  onPin: Dispatch<SetStateAction<string>>;
  /** Shown under the field as `${id}-error`, and the field is marked invalid while it is there. */
  error: string | null | undefined;
  /** What describes the field while there is no error (a hint elsewhere in the form). */
  hintId?: string;
  disabled?: boolean;
  ref?: Ref<HTMLInputElement>;
  /** Marks the field for the screen's focus-on-arrival (App). */
  'data-autofocus'?: boolean;
};

/**
 * A PIN typed on the keyboard or on the touch keypad (sign-in, manager approval): masked, digits only, the
 * error announced beside the field.
 */
export function PinEntry({
  id,
  label,
  keypadLabel,
  pin,
  onPin,
  error,
  hintId,
  disabled,
  ref,
  'data-autofocus': autofocus,
}: PinEntryProps) {
  const errorId = `${id}-error`;
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        ref={ref}
        data-autofocus={autofocus}
        className="pin-input"
        type="password"
        inputMode="numeric"
        autoComplete="off"
        maxLength={maxPinLength}
        value={pin}
        disabled={disabled}
        onChange={(e) => onPin(e.target.value.replace(/\D/g, ''))}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : hintId}
      />
      <ErrorAlert id={errorId} message={error} />
      <Keypad
        label={keypadLabel}
        doubleZero={false}
        disabled={disabled}
        onDigit={(d) => onPin((p) => (p + d).slice(0, maxPinLength))}
        onBackspace={() => onPin((p) => p.slice(0, -1))}
        onClear={() => onPin('')}
      />
    </>
  );
}
