import type { Messages } from '../messages';
import type { links as en } from '../en/links';

export const links: Messages<typeof en> = {
  title: 'Enlaces de pago',
  newTitle: 'Nuevo enlace',
  amount: 'Importe (vacío: lo escribe el cliente)',
  description: 'Descripción',
  invoice: 'Número de factura',
  create: 'Crear enlace',
  badAmount: 'Escriba el importe así: 25.00, o déjelo vacío para que lo escriba el cliente.',
  created: 'Se creó el enlace de pago.',
  disabled: 'Se desactivó el enlace de pago.',
  columns: {
    description: 'Descripción',
    amount: 'Importe',
    status: 'Estado',
    link: 'Enlace',
    actions: 'Acciones',
  },
  none: 'Aún no hay enlaces de pago.',
  open: 'abierto',
  statuses: { UnPaid: 'Sin pagar', Paid: 'Pagado' },
  active: 'Activo',
  inactive: 'Desactivado',
  copyOf: 'Copiar enlace {{name}}',
  copy: 'Copiar enlace',
  copied: 'Se copió el enlace.',
  notCopied: 'No se pudo copiar: seleccione el enlace.',
  disableOf: 'Desactivar el enlace {{name}}',
  disable: 'Desactivar',
};
