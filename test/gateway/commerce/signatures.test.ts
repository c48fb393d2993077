import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { strokesToPng, strokesToSvg } from '../../../native/protocols/signature-render';
import {
  keyedSale,
  merchant1,
  merchant2,
  startGateway,
  type Json,
  type TestGateway,
} from '../../support/gateway-harness';
import { ResponseCode } from '../../../gateway/contract/response-codes';

const strokes = [
  [
    { x: 10, y: 80 },
    { x: 60, y: 20 },
    { x: 110, y: 80 },
  ],
  [{ x: 150, y: 50 }],
];
const source = { width: 300, height: 100 };

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A structurally valid PNG with the given IHDR fields (its pixel data is not meant to decode). */
function png(
  width: number,
  height: number,
  depth = 8,
  colour = 6,
  idat = Buffer.from([0x78, 0x9c, 0x03, 0x00]),
): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = depth;
  ihdr[9] = colour;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', idat),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('Signature Capture', () => {
  let gw: TestGateway;
  const sales: string[] = [];
  let otherMerchantSale = '';

  beforeAll(async () => {
    gw = await startGateway({ backgroundTasks: false });
    for (let i = 0; i < 4; i += 1) {
      const r = await gw.post('/api/Transactions/Sale', keyedSale({ Amount: 3 + i }));
      sales.push(String(r.body.ServiceReferenceNumber));
    }
    const r2 = await gw.post('/api/Transactions/Sale', keyedSale({ ...merchant2, Amount: 4 }));
    otherMerchantSale = String(r2.body.ServiceReferenceNumber);
  });
  afterAll(async () => {
    await gw.close();
  });

  const add = (srn: string, data: unknown, merchant: Json = merchant1) =>
    gw.post('/api/SignatureCapture/Add', { ...merchant, ServiceTransactionNumber: srn, SignatureData: data });
  const list = (srn?: string, merchant: Json = merchant1) =>
    gw.post('/api/SignatureCapture/GetSignatures', {
      ...merchant,
      ...(srn ? { ServiceTransactionNumber: srn } : {}),
    });

  it('stores a PNG from the signature pad and returns it for its transaction', async () => {
    const image = Buffer.from(strokesToPng(strokes, { source, width: 300 })).toString('base64');
    const r = await add(sales[0] ?? '', image);
    expect(r.body.ResponseCode).toBe(200);
    expect(r.body.Signature).toMatchObject({
      ServiceTransactionNumber: sales[0],
      Format: 'png',
      SignatureData: image,
    });
    const got = await list(sales[0]);
    expect(got.body.Signatures).toEqual([r.body.Signature]);
    // A terminal retrying a lost answer gets the same record; a different image is refused.
    const again = await add(sales[0] ?? '', image);
    expect((again.body.Signature as Json).Id).toBe((r.body.Signature as Json).Id);
    const other = Buffer.from(
      strokesToPng(
        [
          [
            { x: 1, y: 1 },
            { x: 200, y: 90 },
          ],
        ],
        { source, width: 300 },
      ),
    ).toString('base64');
    expect((await add(sales[0] ?? '', other)).body.ResponseCode).toBe(426);
  });

  it('stores an SVG and accepts a data: URL PNG', async () => {
    const svg = strokesToSvg(strokes, { source, width: 300 });
    const r = await add(sales[1] ?? '', svg);
    expect(r.body.Signature).toMatchObject({ Format: 'svg', SignatureData: svg });
    const url = `data:image/png;base64,${png(300, 100).toString('base64')}`;
    expect((await add(sales[2] ?? '', url)).body.Signature).toMatchObject({ Format: 'png' });
    const all = (await list()).body.Signatures as Json[];
    expect(all.map((s) => s.ServiceTransactionNumber)).toEqual([sales[0], sales[1], sales[2]]);
  });

  it('refuses data that is not a valid PNG or a safe SVG', async () => {
    const good = png(300, 100);
    const badCrc = Buffer.from(good);
    badCrc[29] = (badCrc[29] ?? 0) ^ 0xff; // inside IHDR's CRC
    const cases: [unknown, number, RegExp][] = [
      ['hello world', 607, /neither base64 PNG data nor an SVG/],
      [Buffer.from('GIF89a....').toString('base64'), 607, /not a PNG/],
      [badCrc.toString('base64'), 607, /CRC/],
      [good.subarray(0, 40).toString('base64'), 607, /truncated|IEND/],
      [png(0, 100).toString('base64'), 607, /zero width/],
      [png(300, 100, 3, 2).toString('base64'), 607, /colour type and bit depth/],
      [png(5000, 100).toString('base64'), 608, /larger than 4096/],
      [Buffer.concat([good, Buffer.from('trailing')]).toString('base64'), 607, /after IEND/],
      ['<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', 607, /script/],
      ['<svg onload="alert(1)"></svg>', 607, /event handler/],
      ['<svg><image href="https://evil.example/x.png"/></svg>', 607, /external reference/],
      ['<svg><use xlink:href="http://evil.example/a.svg#x"/></svg>', 607, /external reference/],
      ['<svg><rect style="fill:url(https://evil.example/p)"/></svg>', 607, /url\(\)/],
      ['<svg><a href="javascript:alert(1)">x</a></svg>', 607, /javascript|external/],
      ['<!DOCTYPE svg [<!ENTITY x "y">]><svg></svg>', 607, /one <svg>/],
      ['<svg><foreignObject><p>hi</p></foreignObject></svg>', 607, /foreignObject/],
      ['<svg><path d="M0 0"/>', 607, /one <svg>/],
      // Found by reading the old pattern filter as an attacker: each of these ran script or reached out.
      [
        '<svg xmlns="http://www.w3.org/2000/svg"><animate/onbegin=alert(1) attributeName="x"/></svg>',
        607,
        /malformed/,
      ],
      [
        '<svg><set attributeName="href" to="javascript:alert(1)"/></svg>',
        607,
        /attributeName|javascript|set/,
      ],
      ['<svg><animate onbegin="alert(1)"/></svg>', 607, /event handler/],
      ['<svg><use href="&#106;avascript:alert(1)"/></svg>', 607, /reference/],
      ['<svg><style>svg{background:red}</style></svg>', 607, /style/],
      ['<svg><![CDATA[<script>alert(1)</script>]]></svg>', 607, /CDATA/],
      ['<svg><SCRIPT>alert(1)</SCRIPT></svg>', 607, /script/],
      ['<svg><path d="M0 0" fill=red/></svg>', 607, /quoted/],
      ['<svg><g><text>hi</text></g></svg>', 607, /text/],
      ['<svg xmlns:x="http://evil.example/ns"><path d="M0 0"/></svg>', 607, /xmlns:x/],
      ['<svg></svg><svg></svg>', 607, /after the root|one <svg>/],
      [true, 400, /SignatureData/],
    ];
    for (const [data, code, message] of cases) {
      const r = await add(sales[3] ?? '', data);
      expect(r.body.ResponseCode, String(data).slice(0, 60)).toBe(code);
      expect((r.body.Msg as string[]).join(' '), String(data).slice(0, 60)).toMatch(message);
    }
    // An internal fragment reference is fine.
    const ok = await add(
      sales[3] ?? '',
      '<svg xmlns="http://www.w3.org/2000/svg"><defs><path id="p" d="M0 0L9 9"/></defs><use href="#p"/></svg>',
    );
    expect(ok.body.ResponseCode).toBe(200);
  });

  it('limits the decoded size to 256 KiB, and the body to the endpoint limit', async () => {
    const sale = await gw.post('/api/Transactions/Sale', keyedSale({ Amount: 9.5 }));
    const srn = String(sale.body.ServiceReferenceNumber);
    const bigSvg = `<svg xmlns="http://www.w3.org/2000/svg"><!-- ${'x'.repeat(270 * 1024)} --></svg>`;
    expect((await add(srn, bigSvg)).body.ResponseCode).toBe(608);
    const bigPng = png(300, 100, 8, 6, Buffer.alloc(270 * 1024, 1)).toString('base64');
    expect((await add(srn, bigPng)).body.ResponseCode).toBe(608);
    const huge = await add(srn, 'A'.repeat(600 * 1024));
    expect(huge.status).toBe(413);
    const fits = png(300, 100, 8, 6, Buffer.alloc(200 * 1024, 1)).toString('base64');
    expect((await add(srn, fits)).body.ResponseCode).toBe(200);
  });

  it('requires a transaction of the same merchant', async () => {
    const image = png(10, 10).toString('base64');
    expect(
      (await gw.post('/api/SignatureCapture/Add', { ...merchant1, SignatureData: image })).body.ResponseCode,
    ).toBe(ResponseCode.InvalidRequest);
    // Missing or empty SignatureData is the real catalog's 54.
    expect(
      (await gw.post('/api/SignatureCapture/Add', { ...merchant1, ServiceTransactionNumber: sales[3] })).body
        .ResponseCode,
    ).toBe(ResponseCode.SignatureDataEmpty);
    expect((await add('000000000000', image)).body.ResponseCode).toBe(
      ResponseCode.ServiceTransactionNumberNotFound,
    );
    // Another merchant's transaction: an unauthorized reference (5), and nothing of it is shown.
    expect((await add(otherMerchantSale, image)).body.ResponseCode).toBe(ResponseCode.UnauthorizedReference);
    expect((await add(sales[0] ?? '', image, merchant2)).body.ResponseCode).toBe(
      ResponseCode.UnauthorizedReference,
    );
    const peek = await list(sales[0], merchant2);
    expect(peek.body.ResponseCode).toBe(ResponseCode.UnauthorizedReference);
    expect(peek.body).not.toHaveProperty('Signatures');
    const theirs = (await list(undefined, merchant2)).body.Signatures as Json[];
    expect(theirs).toEqual([]);
    expect((await list('000000000000')).body.ResponseCode).toBe(
      ResponseCode.ServiceTransactionNumberNotFound,
    );
  });
});
