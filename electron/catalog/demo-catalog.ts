import type { TaxClassInput } from '../../common/bridge/catalog';

/**
 * The sandbox's demo catalog (seeded once into a sandbox terminal's catalog.sqlite): two tax classes that
 * add tax, one exempt and one included in prices; items whose barcodes are the simulator panel's scanner
 * labels (native/simulators/test-barcodes.ts: the UPC-A, EAN-13, EAN-8 and UPC-E labels, and the item
 * codes 04711 and 12345 of its two price-embedded labels), quick keys for items without a barcode, an
 * open-price item, a Code 128 label, a UPC-A stored as its EAN-13 form, and a deactivated item. The items
 * go in through the CSV import, so the demo is also an example of the format (docs/catalog-csv.md).
 */

export const DEMO_TAX_CLASSES: readonly TaxClassInput[] = [
  { code: 'standard', name: 'Sales tax', ratePercent: 8.25, mode: 'exclusive' },
  { code: 'prepared', name: 'Prepared food', ratePercent: 9.75, mode: 'exclusive' },
  { code: 'exempt', name: 'Groceries (exempt)', ratePercent: 0, mode: 'exempt' },
  { code: 'included', name: 'Concessions', ratePercent: 10, mode: 'inclusive' },
];

export const DEMO_CATALOG_CSV = [
  'sku,name,price,tax_class,category,barcodes,open_price,quick_key,price_embedded_code,active',
  'GM-TOWEL-6,Paper towels 6 roll,8.99,standard,General merchandise,036000241457,no,,,yes',
  'GR-OIL-500,Olive oil 500 ml,7.49,exempt,Grocery,6291041500213,no,,,yes',
  'GR-CHOC-BAR,Chocolate bar,1.79,standard,Grocery,96385074,no,,,yes',
  'GR-GUM,Chewing gum,1.29,standard,Grocery,04252614,no,,,yes',
  'DL-HAM,"Deli ham, sliced (price on label)",0.00,exempt,Deli,,yes,,04711,yes',
  'DL-CHEDDAR,Aged cheddar (price on label),0.00,exempt,Deli,,yes,,12345,yes',
  'PR-BANANA,Banana,0.29,exempt,Produce,,no,1,,yes',
  'BK-SOURDOUGH,Sourdough loaf,4.49,exempt,Bakery,,no,2,,yes',
  'CF-COFFEE,Hot coffee,2.50,included,Café,,no,3,,yes',
  'CF-SANDWICH,Breakfast sandwich,5.95,prepared,Café,,no,4,,yes',
  'GM-GIFTWRAP,Gift wrap (open price),0.00,standard,General merchandise,,yes,5,,yes',
  'GM-BAG,Reusable bag,0.99,standard,General merchandise,TP-BAG-01,no,6,,yes',
  'GM-CARD,Greeting card,3.99,standard,General merchandise,0738000001238,no,,,yes',
  'GM-CANDLE,Scented candle (discontinued),6.99,standard,General merchandise,,no,,,no',
].join('\r\n');
