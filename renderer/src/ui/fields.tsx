import type { InputHTMLAttributes, ReactNode } from 'react';

type FieldProps = {
  /** The control's id; the label points at it, and tests and aria-describedby find the control by it. */
  id: string;
  label: ReactNode;
};

export type InputFieldProps = FieldProps &
  Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> & {
    /** Shown under the input: a hint, which the input names in its aria-describedby. */
    children?: ReactNode;
  };

/** A labelled input in the `.field` column that the forms lay out in rows. */
export function InputField({ id, label, children, ...input }: InputFieldProps) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} {...input} />
      {children}
    </div>
  );
}

/**
 * A labelled input that takes digits only (card, account and PIN numbers): the numeric keyboard on touch
 * screens, no autofill unless the caller asks for it, and anything but a digit dropped as it is typed.
 */
export function DigitsField({
  onDigits,
  ...props
}: Omit<InputFieldProps, 'onChange' | 'inputMode'> & { onDigits: (digits: string) => void }) {
  return (
    <InputField
      inputMode="numeric"
      autoComplete="off"
      {...props}
      onChange={(e) => onDigits(e.target.value.replace(/\D/g, ''))}
    />
  );
}

/** One choice of a SelectField: the value it stands for and the words shown. */
export type SelectOption<T extends string | number> = readonly [value: T, text: string];

/**
 * A labelled select whose change hands back the option's own value (a number stays a number), so no
 * caller parses or casts the DOM string.
 */
export function SelectField<T extends string | number>({
  id,
  label,
  value,
  options,
  onChange,
  disabled,
}: FieldProps & {
  value: T;
  options: readonly SelectOption<T>[];
  onChange: (value: T) => void;
  disabled?: boolean;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={value}
        disabled={disabled}
        onChange={(e) => {
          const chosen = options.find(([v]) => String(v) === e.target.value);
          if (chosen) onChange(chosen[0]);
        }}
      >
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

/** An error that screen readers announce as it appears; nothing at all while there is none. */
export function ErrorAlert({ message, id }: { message: string | null | undefined; id?: string }) {
  return message ? (
    <p id={id} className="field-error" role="alert">
      {message}
    </p>
  ) : null;
}
