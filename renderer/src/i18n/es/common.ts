import type { Messages } from '../messages';
import type { common as en } from '../en/common';

export const common: Messages<typeof en> = {
  loading: 'Cargando…',
  back: 'Regresar',
  cancel: 'Cancelar',
  save: 'Guardar',
  done: 'Listo',
  dismiss: 'Cerrar aviso',
  keypad: { clear: 'Borrar', deleteDigit: 'Borrar el último dígito' },
  language: {
    switchTo_en: 'English',
    switchTo_es: 'Español',
    short_en: 'EN',
    short_es: 'ES',
    switchLabel_en: 'English (EN): switch this screen to English',
    switchLabel_es: 'Español (ES): cambiar esta pantalla a español',
  },
  managerApproval: {
    title: 'Autorización del gerente',
    pin: 'PIN del gerente',
    keypad: 'Teclado del PIN del gerente',
    approve: 'Autorizar',
    notManager: 'Ese no es un PIN de gerente.',
  },
  changePin: {
    title: 'Cambiar mi PIN',
    current: 'PIN actual',
    next: 'PIN nuevo (de 4 a 8 dígitos)',
    again: 'Repita el PIN nuevo',
    save: 'Cambiar PIN',
    shape: 'El PIN tiene de 4 a 8 dígitos.',
    mismatch: 'Los dos PIN nuevos no coinciden.',
    done: 'Su PIN se cambió.',
    hint: 'Que no sea una serie como 1234 ni un mismo dígito repetido. Nadie más, ni siquiera un gerente, lo ve.',
    savedClockIn: 'Su PIN se guardó. Registre su entrada para empezar.',
  },
};
