import type { Messages } from '../messages';
import type { errors as en } from '../en/errors';

export const errors: Messages<typeof en> = {
  session: {
    signInFirst: 'Primero inicie sesión.',
    ownPinOnly:
      'Aquí solo se cambia su propio PIN: el PIN de otro empleado lo restablece un gerente en Empleados.',
    tooManyWrong: 'Demasiados PIN incorrectos. Intente de nuevo en {{seconds}} s.',
    tooManyChanges: 'Demasiados cambios de PIN hoy. Intente de nuevo en {{hours}} h.',
    wrongPin: 'PIN incorrecto.',
    oneTimeExpired: 'Este PIN de un solo uso ya venció: pida uno nuevo a un gerente.',
    clockInFirst: 'Primero registre su entrada: escriba su PIN y elija Registrar entrada.',
    pinShape: 'El PIN tiene de 4 a 8 dígitos.',
    pinWeak:
      'Ese PIN es demasiado fácil de adivinar (un dígito repetido, una serie como 1234, un par como 1212): elija otro.',
    pinCurrentMissing: 'Escriba su PIN actual para cambiarlo.',
    pinSame: 'Elija un PIN nuevo, distinto del que tiene.',
    pinNotChanged: 'El PIN no se cambió. Revise su PIN actual o elija otro PIN nuevo.',
    timeClockOff: 'El reloj checador está apagado: un gerente lo activa en Empleados.',
    clockOneTime: 'Primero inicie sesión para elegir su propio PIN; luego registre su entrada con él.',
    alreadyClockedIn: '{{name}}, su entrada ya está registrada.',
    notClockedIn: '{{name}}, no tiene una entrada registrada.',
  },
  approval: {
    managerMust: 'Esto requiere la autorización de un gerente: escriba un PIN de gerente.',
    wrongManagerPin: 'El PIN del gerente no es correcto.',
  },
  till: {
    noTillForCash:
      'No hay una caja abierta en esta terminal: abra una caja en la pantalla Caja para recibir efectivo.',
    noTillForCashBack:
      'No hay una caja abierta en esta terminal: abra una caja en la pantalla Caja para entregar efectivo.',
    alreadyOpen: 'La caja {{tillId}} ({{employee}}) está en el cajón: entréguela o cuéntela primero.',
    noTillOpen: 'No hay una caja abierta en esta terminal: primero abra una caja (pantalla Caja).',
    amountPositive: 'El importe debe ser mayor que cero.',
    noCashOrCheckPayment: 'No hay un pago en efectivo ni con cheque con ese número en esta terminal.',
    lessLeftToGiveBack: 'A ese pago le queda menos por devolver.',
    noCashSale: 'No hay una venta en efectivo con ese número en esta terminal.',
    cashSaleState: 'Esa venta en efectivo está en estado {{state}}.',
    refundedInFull: 'Esa venta en efectivo ya se devolvió completa.',
    refundAtMost: 'En esa venta se pueden devolver como máximo {{amount}}.',
    noSuchTill: 'No existe la caja {{tillId}} en esta terminal.',
    countedAlready: 'La caja {{tillId}} ya se contó.',
    nothingToSignOff: 'La caja {{tillId}} no tiene un conteo que espere el visto bueno.',
    dayNotClosed_one:
      'Todavía no se puede cerrar el día: la caja {{tills}} no está cerrada (cuéntela y dele el visto bueno).',
    dayNotClosed_other:
      'Todavía no se puede cerrar el día: las cajas {{tills}} no están cerradas (cuéntelas y deles el visto bueno).',
    noSuchZ: 'No existe el corte Z {{zNumber}} en esta terminal.',
    saleOpen: 'Hay una venta abierta en esta terminal: termínela o abandónela primero.',
    giveReason: 'Escriba un motivo.',
    enterAmount: 'Escriba el importe.',
    badCount: 'Cuente cada billete, moneda y rollo como un número entero de piezas.',
  },
};
