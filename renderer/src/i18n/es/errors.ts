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
  refund: {
    chooseRefund: 'Elija la transacción a reembolsar.',
    chooseVoid: 'Elija la transacción a anular.',
    amountPositive: 'El importe del reembolso debe ser un número positivo de centavos.',
    atMost: 'Se pueden reembolsar como máximo {{amount}}.',
    settledVoid: 'Este pago ya está liquidado (su lote está cerrado): reembólselo en lugar de anularlo.',
  },
  preauth: {
    chooseHold: 'Elija la preautorización y el importe final.',
    tipPositive: 'La propina debe ser cero o un número positivo de centavos.',
  },
  cards: {
    cancelled: 'Cancelado.',
    noCardInTime: 'No se presentó ninguna tarjeta a tiempo.',
    noPinPad: 'El teclado de PIN no está conectado.',
    noPin: 'No se escribió el PIN.',
  },
  returns: {
    searchBy: 'Escanee el ticket, o busque por fechas, los últimos cuatro de la tarjeta o el importe.',
    dayShape: 'Un día se escribe AAAA-MM-DD.',
    firstAfterLast: 'El primer día es posterior al último.',
    receiptAlone: 'Busque solo por el número de ticket, o por fechas, últimos cuatro e importe.',
    notReceipt: 'Eso no es un número de ticket.',
    noSuchReceipt: 'No hay ninguna venta con ese número de ticket en esta terminal.',
    anotherWindow: 'Esta devolución se está entregando en otra ventana.',
    giftToCredit: 'Deslice la tarjeta de regalo o escriba su número para abonarle el dinero.',
    storedOffline:
      'Ese pago con tarjeta aún no tiene referencia del procesador (se guardó sin conexión): inténtelo de nuevo cuando se haya enviado.',
    typePrice: 'Escriba el precio de {{name}}.',
    scanOrPrice: 'Escanee el artículo o escriba su precio.',
    partGift: 'Parte del dinero vuelve a una tarjeta de regalo: deslícela o escriba su número.',
    noReceiptGift:
      'Aquí una devolución sin ticket se abona a una tarjeta de regalo: deslícela o escriba su número.',
    nothingOwed: 'Devolución {{returnId}}: no se debe nada.',
    giftLoad: 'Una recarga de tarjeta de regalo no se devuelve: su valor está en la tarjeta.',
    saleOpen: 'Esa venta sigue abierta: termínela o abandónela primero.',
    saleAbandoned: 'Esa venta se abandonó: no se pagó nada.',
    noLine: 'La venta no tiene línea {{line}} que devolver.',
    quantityWhole: 'Una cantidad es un número entero.',
    allReturned: '{{name}}: ya se devolvieron los {{count}} vendidos.',
    onlyLeft: '{{name}}: solo se pueden devolver {{left}} de los {{count}} vendidos.',
    chooseItem: 'Elija al menos un artículo para devolver.',
    notThisSale: 'Ese pago no es de esta venta.',
    namedTwice: 'Un pago aparece dos veces en el orden.',
    cannotTakeBack:
      'Se devuelven {{total}}, pero los pagos de la venta solo admiten {{can}} (ya reembolsado o en otra devolución).',
    otherRequest: 'Esa solicitud era de otra devolución.',
    nothingToGive: 'No hay nada que devolver.',
    noTillForCash:
      'No hay una caja abierta en esta terminal: abra una caja en la pantalla Caja para entregar efectivo.',
    noSuchReturn: 'No existe la devolución {{returnId}} en esta terminal.',
    noSuchCashRefund: 'Esta devolución no tiene ese reembolso en efectivo.',
    cashUnderWay: 'Ese reembolso en efectivo ya se entregó o está en curso.',
    unreadable: 'No se puede leer el registro de esa venta.',
  },
};
