import { useTranslation } from 'react-i18next';

type Props = {
  label: string;
  onDigit: (d: string) => void;
  onBackspace: () => void;
  onClear?: () => void;
  disabled?: boolean;
  /** "00" speeds up whole-dollar amounts; a PIN pad has no use for it. */
  doubleZero?: boolean;
};

const rows = [
  ['1', '2', '3'],
  ['4', '5', '6'],
  ['7', '8', '9'],
];

/**
 * A touch keypad. Its keys are real buttons (reachable by Tab, labelled for screen readers); the screens
 * that own a keypad also take the same keys from the physical keyboard.
 */
export function Keypad({ label, onDigit, onBackspace, onClear, disabled, doubleZero = true }: Props) {
  const { t } = useTranslation('common');
  return (
    <div className="keypad" role="group" aria-label={label}>
      {rows.flat().map((d) => (
        <button key={d} type="button" className="key" disabled={disabled} onClick={() => onDigit(d)}>
          {d}
        </button>
      ))}
      {doubleZero ? (
        <button type="button" className="key" disabled={disabled} onClick={() => onDigit('00')}>
          00
        </button>
      ) : onClear ? (
        <button type="button" className="key key-aux" disabled={disabled} onClick={onClear}>
          {t('keypad.clear')}
        </button>
      ) : (
        <span />
      )}
      <button type="button" className="key" disabled={disabled} onClick={() => onDigit('0')}>
        0
      </button>
      <button
        type="button"
        className="key key-aux"
        disabled={disabled}
        onClick={onBackspace}
        aria-label={t('keypad.deleteDigit')}
      >
        ⌫
      </button>
    </div>
  );
}
