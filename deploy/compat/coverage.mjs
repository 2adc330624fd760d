// Which methods of the UNMODIFIED official client that address this server's resources have no route here: calls
// every such method once, with placeholder ids and an empty body, and prints the ones the server answers with its
// "there is no resource at" 404 or a 405 (a route that exists answers a 400/404 about the placeholder instead),
// and those answering 501 (the route exists; the capability, e.g. an NLU, does not).
// Nothing is created: placeholder ids name nothing, and empty bodies are refused.
//
//   API_KEY=... node coverage.mjs

import { RestAPIClient, BASE_URL, API_KEY, lastEntry } from "./harness.mjs";

const client = new RestAPIClient({ baseUrl: BASE_URL });
client.setCredentials({ type: "ApiKey", apiKey: API_KEY });

// the resources this server serves (paths under /new/v2.0 and /new/v3.0)
const OURS = /\/new\/v[23]\.0\/(projects|flows|intents|locales|snippets|functions|knowledgestores|snapshots|tasks|auditevents|users\/me\/(apikeys|loginattempts|lastloginattempt)|users\/[^/]+\/resetfailedloginattempts|callcounter|eventlog|system\/message|external\/alexa)/;
const PLACEHOLDER = "0123456789abcdef01234567";

const methods = Object.keys(client).filter((name) => typeof client[name] === "function")
  .map((name) => ({ name, source: client[name].toString() }))
  .map((m) => ({ ...m, path: (m.source.match(/`(\/new\/[^`]*)`|"(\/new\/[^"]*)"/) || [])[1]
    || (m.source.match(/`(\/new\/[^`]*)`|"(\/new\/[^"]*)"/) || [])[2] }))
  .filter((m) => m.path && OURS.test(m.path))
  .sort((a, b) => a.name.localeCompare(b.name));

const missing = [];
const unavailable = [];
for (const m of methods) {
  const args = {};
  for (const [, name] of m.path.matchAll(/\$\{(?:args\.)?(\w+)\}/g)) {
    args[name] = PLACEHOLDER;
  }
  try {
    await client[m.name](args);
  } catch (err) {
    // refused: look at what the server said
  }
  const e = lastEntry();
  const body = typeof e?.responseBody === "string" ? e.responseBody : JSON.stringify(e?.responseBody ?? "");
  if (e && (e.status === 405 || (e.status === 404 && body.includes("There is no resource at")))) {
    missing.push(`${m.name}: ${e.method} ${e.url.replace(BASE_URL, "")} -> ${e.status}`);
  } else if (e && e.status === 501) {
    unavailable.push(`${m.name}: ${e.method} ${e.url.replace(BASE_URL, "")} -> 501`);
  }
}
console.log(`# ${methods.length} client methods address this server's resources; ${missing.length} have no route, `
  + `${unavailable.length} answer 501 (a capability this server does not have, said in the problem's detail):`);
missing.forEach((line) => console.log(`MISSING ${line}`));
unavailable.forEach((line) => console.log(`501 ${line}`));
