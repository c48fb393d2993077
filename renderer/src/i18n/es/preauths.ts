import type { preauths as en } from '../en/preauths';
import type { Messages } from '../messages';

export const preauths: Messages<typeof en> = {
  title: 'Preautorizaciones',
  intro:
    'Retenciones abiertas de los últimos 7 días en esta terminal. Una retención se hace en la pantalla Venta con Preautorización (A); no cobra nada hasta que se completa aquí.',
  refresh: 'Actualizar',
  count_one: '{{count}} retención abierta',
  count_other: '{{count}} retenciones abiertas',
  columns: {
    time: 'Fecha',
    card: 'Tarjeta',
    held: 'Retenido',
    auth: 'Autorización',
    number: 'Número',
    actions: 'Acciones',
  },
  complete: 'Completar',
  completeLabel: 'Completar {{amount}} {{card}}',
  dialog: {
    title: 'Completar preautorización',
    held: '{{card}} · retenido {{amount}} · {{time}}',
    auth: ' · autorización {{code}}',
    amount: 'Importe final (hasta {{amount}})',
    tip: 'Propina (vacío: sin propina)',
    presets: 'Propinas sugeridas',
    noTip: 'Sin propina',
    preset: '{{percent}} % ({{amount}})',
    hint: 'Una propina mayor de lo que la terminal permite sobre una retención (20 % salvo cambio) requiere el PIN de un gerente.',
    total: 'Total a cobrar: {{amount}}',
    check: 'Revise los importes.',
    back: 'Regresar',
    submit: 'Completar',
    submitAmount: 'Cobrar {{amount}}',
    amountRange: 'Escriba un importe final de 0.01 a {{amount}}.',
    tipShape: 'Escriba la propina así: 3.00, o déjela vacía.',
    approveTip: 'Aprobar una propina de {{tip}} sobre una retención de {{amount}}.',
    notApproved: 'No se completó: un gerente debe aprobar esta propina.',
    done: 'Completada por {{amount}} con {{card}}.',
    doneTip: 'Completada por {{amount}} (propina {{tip}}) con {{card}}.',
  },
};
