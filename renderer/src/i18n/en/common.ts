/** Words the shared parts of every screen use (dialogs, keypads, the language toggle, the PIN dialogs). */
export const common = {
  loading: 'Loading…',
  back: 'Back',
  cancel: 'Cancel',
  save: 'Save',
  done: 'Done',
  dismiss: 'Dismiss',
  keypad: { clear: 'Clear', deleteDigit: 'Delete last digit' },
  language: {
    /** The top bar's button: the other language, in its own words. */
    switchTo_en: 'English',
    switchTo_es: 'Español',
    /** The same, where a 1024 px top bar has room for two letters only. */
    short_en: 'EN',
    short_es: 'ES',
    switchLabel_en: 'English (EN): switch this screen to English',
    switchLabel_es: 'Español (ES): cambiar esta pantalla a español',
  },
  managerApproval: {
    title: 'Manager approval',
    pin: 'Manager PIN',
    keypad: 'Manager PIN keypad',
    approve: 'Approve',
    notManager: 'That is not a manager PIN.',
  },
  changePin: {
    title: 'Change my PIN',
    current: 'Current PIN',
    next: 'New PIN (4 to 8 digits)',
    again: 'New PIN again',
    save: 'Change PIN',
    shape: 'A PIN is 4 to 8 digits.',
    mismatch: 'The two new PINs differ.',
    done: 'Your PIN is changed.',
    hint: 'Not a run like 1234 nor one digit repeated. Nobody else, a manager included, ever sees it.',
    savedClockIn: 'Your PIN is saved. Clock in to start.',
  },
};
