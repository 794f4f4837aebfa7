import JsBarcode from 'jsbarcode';
import QRCode from 'qrcode';
import { useEffect, useRef, useState } from 'preact/hooks';
import { paperLines } from '../model/paper';
import type { PrintJob } from '../model/types';

function QrCode({ value }: { value: string }) {
  const [source, setSource] = useState('');
  useEffect(() => {
    void QRCode.toDataURL(value, { margin: 1, width: 132, errorCorrectionLevel: 'M' }).then(setSource, () =>
      setSource(''),
    );
  }, [value]);
  return (
    <div class="paper-code">
      {source === '' ? (
        <span>[QR]</span>
      ) : (
        <img src={source} width={132} height={132} alt={`QR code: ${value}`} />
      )}
    </div>
  );
}

function Barcode({ value }: { value: string }) {
  const svg = useRef<SVGSVGElement>(null);
  useEffect(() => {
    if (svg.current === null) return;
    try {
      JsBarcode(svg.current, value, { format: 'CODE128', height: 44, width: 1.3, fontSize: 12, margin: 0 });
    } catch {
      // A value CODE128 cannot carry: the text beneath is still printed.
    }
  }, [value]);
  return (
    <div class="paper-code">
      <svg ref={svg} role="img" aria-label={`Barcode: ${value}`} />
    </div>
  );
}

/** A print job drawn as the paper it printed: 32 columns, bold, aligned, with its codes. */
export function Paper({ job }: { job: PrintJob }) {
  if (job.commands === undefined) {
    return <pre class="paper">{job.printedText ?? ''}</pre>;
  }
  return (
    <div class="paper" role="img" aria-label={`Receipt printed by ${job.terminalSerial}`} data-testid="paper">
      {paperLines(job.commands).map((line, index) => {
        switch (line.kind) {
          case 'text':
            return (
              <div key={index} class={`paper-line align-${line.align}${line.bold ? ' bold' : ''}`}>
                {line.text === '' ? '\u00a0' : line.text}
              </div>
            );
          case 'qr':
            return <QrCode key={index} value={line.value} />;
          case 'barcode':
            return <Barcode key={index} value={line.value} />;
          case 'cut':
            return (
              <div key={index} class="paper-cut" aria-hidden="true">
                ✂ - - - - - - - - - - - - - - -
              </div>
            );
          default: {
            const unknown: never = line;
            return String(unknown);
          }
        }
      })}
    </div>
  );
}
