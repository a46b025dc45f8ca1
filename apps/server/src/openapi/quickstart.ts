import { SIGNATURE_WINDOW_SECONDS } from '@paydesk/contracts';

/**
 * The developer page's quickstart: a test invoice with curl and a signing snippet in Node,
 * the payment form, the callback and how to verify it, then the rules an integrator needs (signing,
 * idempotency, errors). The snippets are run as written by the contract test (openapi/contract.test.ts).
 */

/** The signing snippet: prints the three auth headers, one per line, for `curl -H @file`. */
export const SIGN_SNIPPET = `// sign.mjs: node sign.mjs METHOD PATH [BODY] > headers.txt
import { createPrivateKey, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';

const demo = JSON.parse(readFileSync(process.env.DEMO_FILE ?? 'data/demo-merchant.json', 'utf8'));
const [method, path, body = ''] = process.argv.slice(2);
const timestamp = Math.floor(Date.now() / 1000);
const message = \`\${timestamp}.\${method.toUpperCase()}.\${path}.\${body}\`;
const signature = sign(null, Buffer.from(message), createPrivateKey(demo.privateKeyPem)).toString('base64');
console.log(\`X-Merchant-Id: \${demo.merchantId}\\nX-Timestamp: \${timestamp}\\nX-Signature: \${signature}\`);
`;

/** Creates a test deposit with curl (PAYDESK_URL and the sign.mjs above); prints the answer. */
export const CURL_SNIPPET = `TERMINAL=$(node -p "require(path.resolve(process.env.DEMO_FILE ?? 'data/demo-merchant.json')).terminals.find(t => t.isTest && t.flowType === 'DEPOSIT').id")
ORDER="order-$(date +%s)"
BODY='{"terminalId":"'$TERMINAL'","flowType":"DEPOSIT","amount":1500000,"currency":"UZS","merchantInvoiceId":"'$ORDER'","customer":{"externalId":"customer-1","firstName":"Aziz","lastName":"Karimov"},"successUrl":"https://shop.example.com/ok","cancelUrl":"https://shop.example.com/cancel","errorUrl":"https://shop.example.com/error"}'
node sign.mjs POST /api/merchant/v1/invoices "$BODY" > headers.txt
curl -sS -X POST "$PAYDESK_URL/api/merchant/v1/invoices" \\
  -H @headers.txt -H 'Content-Type: application/json' -H "Idempotency-Key: $ORDER" \\
  --data-raw "$BODY"
`;

/** Verifies a callback without dependencies (any Standard Webhooks library does the same). */
const VERIFY_SNIPPET = `// receiver.mjs: PAYDESK_WEBHOOK_SECRET=whsec_… node receiver.mjs
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';

const key = Buffer.from(process.env.PAYDESK_WEBHOOK_SECRET.replace(/^whsec_/, ''), 'base64');
const seen = new Set(); // use your database: a webhook-id is delivered at least once

createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8'); // the raw bytes: do not re-serialise
    const id = req.headers['webhook-id'];
    const ts = Number(req.headers['webhook-timestamp']);
    const expected = Buffer.from('v1,' + createHmac('sha256', key).update(\`\${id}.\${ts}.\${body}\`).digest('base64'));
    const ok = String(req.headers['webhook-signature'] ?? '')
      .split(' ')
      .some((s) => s.length === expected.length && timingSafeEqual(Buffer.from(s), expected));
    if (!ok || Math.abs(Date.now() / 1000 - ts) > 300) return res.writeHead(401).end();
    if (!seen.has(id)) {
      seen.add(id);
      const event = JSON.parse(body);
      console.log(event.type, event.merchantInvoiceId, event.status, event.amount, event.currency);
    }
    res.writeHead(204).end();
  });
}).listen(8080);
`;

export function quickstartMarkdown(publicUrl: string): string {
  const url = publicUrl.replace(/\/+$/, '');
  return `
## Quickstart: a test payment in five minutes

Everything below runs against the sandbox that \`npm start\` serves (${url}). Test terminals (\`isTest\`) are the
sandbox: the built-in sandbox provider confirms a payment a few seconds after the customer submits the form, amounts
whose minor units end in 13 are declined, and no real money moves (a separate test book).

**1. Your credentials.** The demo seed writes \`data/demo-merchant.json\`: \`merchantId\`, \`privateKeyPem\` (Ed25519),
\`webhookSecret\` (\`whsec_…\`) and the \`terminals\`. In production you generate the key pair yourself and paste the
public key on the Merchant page; the private key never leaves your server.

**2. Sign requests.** Every merchant API request carries \`X-Merchant-Id\`, \`X-Timestamp\` (unix seconds) and
\`X-Signature\`: the base64 Ed25519 signature of \`{timestamp}.{METHOD}.{path}.{rawBody}\`. Node, no dependencies:

\`\`\`js
${SIGN_SNIPPET}\`\`\`

**3. Create a test deposit** (1,500,000 in minor units = 15,000.00 UZS):

\`\`\`sh
PAYDESK_URL=${url}
${CURL_SNIPPET}\`\`\`

The answer is \`201\` with \`data.formUrl\`.

**4. Open the form.** Send the customer to \`formUrl\` (open it yourself: it works on a phone, in English, Russian
or Uzbek). Pick a payment method; the form shows the details to transfer to; press **Have paid**. On a test terminal
the sandbox provider confirms the money a few seconds later and the invoice becomes \`DONE\`.

**5. Receive the callback.** Each status change is POSTed to the invoice's \`callbackUrl\` (else the terminal's),
signed the [Standard Webhooks](https://www.standardwebhooks.com/) way. The demo terminals deliver to the server's own
inbox (\`/api/demo/callbacks\`, not in production), which verifies each one with the \`standardwebhooks\` library: sign
in to the back-office, open the invoice and expand **Callbacks** to see the headers, the body and the verdict. Your
own receiver, without dependencies:

\`\`\`js
${VERIFY_SNIPPET}\`\`\`

The callback types, their body and the retry schedule are under **Webhooks** below.

## Rules worth reading once

**Signing.** \`path\` is the request path with its query string, exactly as sent; \`rawBody\` the exact bytes of the
body (empty for GET). The timestamp must be within ${SIGNATURE_WINDOW_SECONDS} s of the server clock. A wrong or
missing signature answers \`401 INVALID_SIGNATURE\`.

**Idempotency.** Send \`Idempotency-Key\` (up to 255 characters, e.g. your order id) on every create. For 24 h:
- the same key with the **same bytes** replays the first answer (same status and body, header
  \`Idempotent-Replayed: true\`) and creates nothing;
- the same key with a **different body** answers \`409 IDEMPOTENCY_CONFLICT\`. Bytes are compared, not meaning:
  the signature covers the bytes, so re-serialising an object with its keys in another order is a different body.
  Keep the bytes you sent if you may retry;
- **concurrent** requests with one key execute once: the others replay its answer, or answer \`409 CONFLICT\`
  while the first is still running (retry shortly).

\`merchantInvoiceId\` is unique per merchant at any age: a second invoice with the same one answers
\`409 DUPLICATE\`.

**Errors.** Every error is \`{"error": {"code", "message", "fields"?}}\`; branch on \`code\` (listed per operation
below), show \`message\` to people, and read \`fields\` (per-field messages) on \`VALIDATION_ERROR\`. Retry
\`409 CONFLICT\`, \`429 TOO_MANY_REQUESTS\` and \`5xx\` with the same Idempotency-Key; the others will not change on
a retry.

**Amounts** are integers in minor units of the currency (UZS and RUB have 2 decimals): 1500000 is 15,000.00.
`;
}
