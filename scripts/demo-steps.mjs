// The steps `npm run demo` prints (and the README's demo section shows, for the default ports): one bash block that
// works pasted whole, or run with `bash -e`. It links a session by QR with the simulated phone, sends a text to a
// simulated contact, has the contact answer, and shows both. Only curl and node, no jq.

/** First and last line of the block (bash comments, so pasting them along does no harm). */
export const BEGIN =
  '# ── Waygate demo: paste from here to the end line into bash ──────────────────────────';
export const END = '# ── end of the demo steps ───────────────────────────────────────────────────────────';

/** The defaults of `npm run demo` run from the repository folder (what the README shows). */
export const DEFAULTS = {
  gatewayUrl: 'http://127.0.0.1:2785',
  adminUrl: 'http://127.0.0.1:7080/admin',
  keyFile: 'data-demo/.api-key',
};

const PHONE = '15550001111';
const CONTACT = '15550002222';

/** A path as one bash word. */
function shellWord(text) {
  return /^[\w./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

/** The block, for a gateway at `gatewayUrl`, the simulator's admin API at `adminUrl` and the key in `keyFile`. */
export function demoSteps({ gatewayUrl, adminUrl, keyFile }) {
  return `${BEGIN}
GW=${gatewayUrl}; SIM=${adminUrl}; KEY=$(cat ${shellWord(keyFile)})
# gw/sim METHOD PATH [curl options]: the gateway's API (with the key) and the simulator's admin API
gw()  { curl -sS --fail-with-body -H "X-API-Key: $KEY" -H 'content-type: application/json' -X "$1" "$GW$2" "\${@:3}"; echo; }
sim() { curl -sS --fail-with-body -H 'content-type: application/json' -X "$1" "$SIM$2" "\${@:3}"; echo; }
# field NAME: one field of the JSON on stdin (node, so no jq needed); fails when it is missing
field() { node -e "const v = JSON.parse(require('fs').readFileSync(0, 'utf8')).$1; if (v === undefined) process.exit(1); console.log(v)"; }
# until_shows TEXT COMMAND…: runs the command every half second until its output contains TEXT (60 s at most)
until_shows() {
  local text=$1 out=; shift
  for _ in $(seq 120); do out=$("$@" 2>&1) && [[ $out == *"$text"* ]] && { echo "$out"; return; }; sleep 0.5; done
  echo "gave up waiting for $text; last answer: $out" >&2; return 1
}

# 1. Create a session, start it, and wait until it shows a QR (status qr_ready)
ID=$(gw POST /api/sessions -d '{"name":"demo-'$RANDOM'"}' | field id); echo "session $ID"
gw POST /api/sessions/$ID/start
until_shows '"status":"qr_ready"' gw GET /api/sessions/$ID

# 2. Fetch the QR (a PNG data URL; open it in a browser to see it). The simulated phone ${PHONE} scans it,
#    as WhatsApp's "Linked devices" screen would; wait until the session is ready
QR=$(gw GET /api/sessions/$ID/qr | field qrCode); echo "\${QR:0:50}…"
sim POST /mock-phone/scan-qr -d '{"qr":"'"$QR"'","phone":"${PHONE}"}'
until_shows '"status":"ready"' gw GET /api/sessions/$ID

# 3. Send a text to the simulated contact ${CONTACT}: its chat id is <number>@c.us. Then look in its inbox
sim POST /contacts -d '{"number":"${CONTACT}","name":"Alice"}'
gw POST /api/sessions/$ID/messages/send-text -d '{"chatId":"${CONTACT}@c.us","text":"Hello Alice, this is Waygate"}'
until_shows 'Hello Alice' sim GET /contacts/${CONTACT}/messages

# 4. The contact answers; the reply is in the session's message history (@ URL-encoded as %40 in the query)
sim POST /contacts/${CONTACT}/messages -d '{"to":"${PHONE}","text":"Hi Waygate, Alice here"}'
until_shows 'Alice here' gw GET "/api/sessions/$ID/messages?chatId=${CONTACT}%40c.us"
${END}`;
}
