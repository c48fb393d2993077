import { describe, expect, it } from 'vitest';
import {
  endOfStoreDay,
  formatReceiptTime,
  formatStoreDateTime,
  formatStoreStamp,
  formatStoreTime,
  isTimeZone,
  startOfStoreDay,
  startOfStoreDayAt,
  storeDay,
  storeHour,
  storeTimeZone,
} from '../../common/store-time';

const NY = 'America/New_York';
// 2026-11-22 15:05:07 UTC is 10:05:07 AM in New York (EST, UTC-5).
const at = Date.UTC(2026, 10, 22, 15, 5, 7);

describe('times a person reads are the store’s (common/store-time.ts)', () => {
  it('formats in the store’s zone, never UTC or ISO', () => {
    expect(formatStoreTime(at, NY)).toBe('10:05 AM');
    expect(formatStoreDateTime(at, NY)).toBe('Nov 22, 10:05 AM');
    expect(formatStoreStamp(at, NY)).toBe('Nov 22, 10:05:07 AM');
    expect(formatReceiptTime(at, NY)).toBe('11/22/2026 10:05 AM EST');
    expect(formatStoreTime(at, 'Asia/Tokyo')).toBe('12:05 AM'); // the next day there
    expect(formatReceiptTime(at, NY)).not.toMatch(/[\u202f\u00a0]/);
  });

  it('writes a time in the locale of the text it sits in (English by default)', () => {
    expect(formatStoreTime(at, NY, 'es-US')).toBe('10:05 a.m.');
    expect(formatStoreDateTime(at, NY, 'es-US')).toBe('22 nov, 10:05 a.m.');
    expect(formatStoreStamp(at, NY, 'es-MX')).toBe('22 nov, 10:05:07 a.m.');
    expect(formatReceiptTime(at, NY, 'es-US')).toBe('22/11/2026 10:05 a.m. EST');
    expect(formatStoreDateTime(at, NY, 'en-US')).toBe(formatStoreDateTime(at, NY));
    expect(formatReceiptTime(at, NY, 'es-US')).not.toMatch(/[\u202f\u00a0]/);
  });

  it('uses the merchant’s zone when it is one, else the machine’s', () => {
    expect(storeTimeZone(NY, 'UTC')).toBe(NY);
    expect(storeTimeZone(null, 'Europe/Berlin')).toBe('Europe/Berlin');
    expect(storeTimeZone('Not/AZone', 'Europe/Berlin')).toBe('Europe/Berlin');
    expect(storeTimeZone('', 'nonsense')).toBe('UTC');
    expect(isTimeZone('America/Chicago')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
  });

  it('reads the store’s hour and day', () => {
    expect(storeHour(at, NY)).toBe(10);
    expect(storeDay(Date.UTC(2026, 10, 23, 3, 0), NY)).toBe('2026-11-22'); // 10 PM the evening before
  });

  it('finds the store day’s first and last millisecond, also across DST changes', () => {
    expect(startOfStoreDay('2026-11-22', NY)).toBe(Date.UTC(2026, 10, 22, 5));
    // 2026-03-08: clocks go forward at 2 AM; the day starts on EST and ends on EDT (23 hours long).
    expect(startOfStoreDay('2026-03-08', NY)).toBe(Date.UTC(2026, 2, 8, 5));
    expect(endOfStoreDay('2026-03-08', NY)).toBe(Date.UTC(2026, 2, 9, 4) - 1);
    // 2026-11-01: clocks go back at 2 AM; the day starts on EDT (25 hours long).
    expect(startOfStoreDay('2026-11-01', NY)).toBe(Date.UTC(2026, 10, 1, 4));
    expect(endOfStoreDay('2026-11-01', NY)).toBe(Date.UTC(2026, 10, 2, 5) - 1);
    expect(startOfStoreDayAt(at, NY)).toBe(Date.UTC(2026, 10, 22, 5));
    expect(startOfStoreDayAt(at, 'UTC')).toBe(Date.UTC(2026, 10, 22));
    expect(() => startOfStoreDay('22/11/2026', NY)).toThrow(RangeError);
  });
});
