import { describe, expect, it } from 'vitest';
import {
  cutToRoom,
  fitPair,
  itemRows,
  messageRows,
  toDisplayText,
  totalRows,
} from '../../../native/protocols/pole-display-lines';

// The caller's formatter: the lane's currency (a later i18n change supplies it); a plain one here.
const usd = (cents: number): string => `$${(cents / 100).toFixed(2)}`;

describe('pole display lines (2 x 20)', () => {
  it('puts an item and its price on one row, the price right-aligned, and the subtotal below', () => {
    expect(
      itemRows({ name: 'Milk 2% 1 gal', priceCents: 349 }, usd, { label: 'Subtotal', cents: 1287 }),
    ).toEqual(['Milk 2% 1 gal  $3.49', 'Subtotal      $12.87']);
  });
  it('cuts a long name at a word boundary to leave the price whole', () => {
    expect(itemRows({ name: 'CHOCOLATE CHIP COOKIES 12PK', priceCents: 349 }, usd)).toEqual([
      'CHOCOLATE CHIP $3.49',
      ' '.repeat(20),
    ]);
  });
  it('cuts mid-word when no word boundary is near the end (no useless short name)', () => {
    expect(cutToRoom('SUPERCALIFRAGILISTIC BAR', 14)).toBe('SUPERCALIFRAGI');
    expect(fitPair('A VERYLONGPRODUCTNAME', '$1,234.56')).toBe('A VERYLONG $1,234.56');
  });
  it('keeps the price whole even when nothing of the name fits', () => {
    expect(fitPair('Gift card', '$100,000,000.00')).toBe('Gift $100,000,000.00');
    expect(fitPair('Gift card', '$1,000,000,000.00')).toBe('   $1,000,000,000.00');
  });
  it('shows a total and change due, each row exactly 20 characters', () => {
    const rows = totalRows({ label: 'TOTAL', cents: 4210 }, usd, { label: 'Change', cents: 790 });
    expect(rows).toEqual(['TOTAL         $42.10', 'Change         $7.90']);
    expect(rows.every((r) => r.length === 20)).toBe(true);
  });
  it('centres a message', () => {
    expect(messageRows('THANK YOU', 'Please come again')).toEqual([
      '     THANK YOU      ',
      ' Please come again  ',
    ]);
  });
  it('folds text to what the display can show', () => {
    // The display's table is PC437 (ESC t 0): its accented letters are shown as they are.
    expect(toDisplayText('Café  crème\tbrûlée')).toBe('Café crème brûlée');
    expect(toDisplayText('¡Gracias! ¿Año? Ñandú')).toBe('¡Gracias! ¿Año? Ñandú');
    // Letters PC437 lacks (capital Á Í Ó Ú, ã, ő…) lose their accent rather than show as `?`.
    expect(toDisplayText('ÁREA ÍNDICE ÓPTICA ÚLTIMO São')).toBe('AREA INDICE OPTICA ULTIMO Sao');
    expect(toDisplayText('Tea 🍵')).toBe('Tea ??');
    expect(toDisplayText('€5')).toBe('?5');
  });
});
