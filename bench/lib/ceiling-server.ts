/**
 * The ceiling of this machine: a bare Node HTTP server that parses the same JSON body as the
 * sync charge and answers a canned Authorization response. Started as its own process.
 */
import { createServer } from 'node:http';

const CANNED = JSON.stringify({
  approved: true,
  responseCode: '00',
  authCode: 'A1B2C3',
  issuerAuthenticationData: '0102030405060708090A',
  issuerScript1: '',
  issuerScript2: '',
  message: 'approved',
  rawResponse: {
    authorized_amount: 11600,
    card_type: 'CREDIT',
    cvm_type: 'OFFLINE_PIN',
    franchise: 'VISA',
    service_response: { code: '000', message: 'approved' },
    transaction_reference: '00000000-0000-4000-8000-000000000000',
    transaction_status: 'APPROVED',
    transaction_type: 'SALE',
    ticket_number: '00000001',
    F11: '000001',
    message_fields: { F38: 'A1B2C3', F39: '00', F55: '910A0102030405060708090A' },
  },
  cardData: {
    pan: '************4242',
    cardHolderName: 'SANDBOX/CARDHOLDER',
    cardType: 'CREDIT',
    entryMode: 'CHIP',
    showReciptSignature: false,
    cvm: 'OFFLINE_PIN',
    aid: 'A0000000031010',
    bin: '424242',
    isOnlinePinMandatory: false,
  },
  timestamp: 0,
});

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    try {
      JSON.parse(Buffer.concat(chunks).toString('utf8'));
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(CANNED);
    } catch {
      response.writeHead(400, { 'content-type': 'application/json' });
      response.end('{"type":"PARAMETER","code":"PAR-001","message":"request body is not valid JSON"}');
    }
  });
});

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  process.stdout.write(`listening on port ${port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
