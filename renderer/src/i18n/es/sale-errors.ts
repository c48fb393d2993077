import type { Messages } from '../messages';
import type { saleErrors as en } from '../en/sale-errors';

export const saleErrors: Messages<typeof en> = {
  noLines: 'Esta cuenta se abrió por un importe: no tiene artículos.',
  tenderInProgress: 'Hay un pago en curso: termínelo o cancélelo primero.',
  anotherTender: 'Hay otro pago en curso: termínelo o cancélelo primero.',
  cancelTenderFirst: 'Cancele primero el pago en curso.',
  linesLocked: 'Parte de la cuenta ya se pagó: sus artículos ya no se pueden cambiar.',
  noOpenTicket: 'No hay una cuenta abierta con ese número.',
  ticketPaid: 'La cuenta ya está pagada.',
  ticketAbandoned: 'La cuenta se canceló.',
  noSignatureNeeded: 'Este pago no necesita firma.',
  tipNotNegative: 'La propina debe ser cero o una cantidad positiva de centavos.',
  tipAfterApproval: 'Ya hay un pago aprobado: agregue la propina en el siguiente pago.',
  alreadySigned: 'El cliente ya firmó.',
  padNotSigned: 'No se firmó nada en el pad: pida al cliente que firme otra vez.',
  signatureEmpty: 'La firma está vacía.',
  noReceiptYet: 'Todavía no hay un ticket que reimprimir.',
  enterCash: 'Escriba el efectivo que entregó el cliente.',
  checkFields: 'Escriba el número de ruta (9 dígitos), el número de cuenta y el número de cheque.',
  cashBackNotNegative: 'El retiro de efectivo debe ser cero o una cantidad positiva de centavos.',
  noPinPad: 'El PIN pad no está conectado: cobre con crédito o pida a un técnico que revise el PIN pad.',
  keyedNeeds: 'Para teclear la tarjeta se necesitan el número y el vencimiento (MMAA).',
  noSwipeReader:
    'El lector de tarjetas no está conectado. Teclee la tarjeta o pida a un técnico que revise el lector.',
  noCardReader:
    'No hay ningún lector de tarjetas conectado. Teclee la tarjeta o pida a un técnico que revise los lectores.',
  giftNumber: 'El número de la tarjeta de regalo tiene de 12 a 19 dígitos.',
  inactiveItem: '{{name}} ya no se vende (inactivo).',
  openPrice: 'Escriba el precio de {{name}}: es un artículo de precio abierto.',
  priceUnworkable: 'Ese precio no se puede calcular.',
  discountPercent: 'Un descuento es de 0 a 100 %, con cuatro decimales como máximo.',
  discountAmount: 'Un descuento es cero o una cantidad positiva de centavos.',
  tooManyLines: 'Una cuenta tiene como máximo {{max}} artículos: termine esta primero.',
  noSuchLine: 'Ese artículo no está en esta cuenta.',
  lineVoided: 'Ese artículo está anulado.',
  weighedQuantity: 'La cantidad de un artículo pesado está en su etiqueta: escanee cada etiqueta.',
  weighedPrice: 'El precio de un artículo pesado está en su etiqueta: anule el artículo para quitarlo.',
  chooseTender: 'Elija una forma de pago.',
  moreThanRemains: 'El importe es mayor de lo que falta por pagar en la cuenta.',
  largeChange:
    'Un cambio de {{change}} es más de un billete de {{bill}} por encima de los {{due}} a cobrar: revise el efectivo recibido, o confírmelo.',
};
