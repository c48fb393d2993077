import type { Messages } from '../messages';
import type { signin as en } from '../en/signin';

export const signin: Messages<typeof en> = {
  title: 'Iniciar sesión',
  pin: 'Su PIN',
  keypad: 'Teclado del PIN',
  signIn: 'Iniciar sesión',
  clockIn: 'Registrar entrada',
  clockOut: 'Registrar salida',
  timeClock: 'Reloj checador',
  clockHint:
    'Registre su entrada al empezar su turno y su salida al terminarlo: escriba su PIN y luego elija.',
  sandbox: 'PIN de prueba: cajero 1111, gerente 9999, técnico 7777.',
  paymentRunning: 'Hay un cobro en curso en esta terminal. Inicie sesión para verlo y ver su resultado.',
  clockedIn: '{{name}}, se registró su entrada ({{time}}).',
  clockedOut: '{{name}}, se registró su salida ({{time}}).',
  chooseTitle: 'Elija su PIN',
  chooseIntro:
    'Le damos la bienvenida, {{name}}. Inició sesión con un PIN de un solo uso: elija un PIN propio, de 4 a 8 dígitos, que solo usted conozca.',
  newPin: 'Su PIN nuevo',
  newKeypad: 'Teclado del PIN nuevo',
  again: 'Escríbalo de nuevo',
  againKeypad: 'Teclado para repetir el PIN',
  next: 'Siguiente',
  save: 'Guardar mi PIN',
  back: 'Regresar',
  tooShort: 'El PIN tiene de 4 a 8 dígitos.',
  mismatch: 'Los dos PIN no coinciden: escriba de nuevo su PIN nuevo.',
};
