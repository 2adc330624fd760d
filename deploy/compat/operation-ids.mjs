// The official client's method names with the route each calls, read from the UNMODIFIED client's own code: the data
// the services' OpenAPI documents take their operationIds from. Prints one line per method, "name METHOD path"
// (tab-separated, the path without the /new base path, each variable as {}), sorted. Regenerate after a client update:
//
//   node operation-ids.mjs > ../../shared-api/http/src/main/resources/ai/convo/http/openapi/client-operations.tsv

import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const { RestAPIClient } = require("@cognigy/rest-api-client");
const version = require("@cognigy/rest-api-client/package.json").version;

const client = new RestAPIClient({ baseUrl: "http://localhost" });
// GenericAPIFn(`/new/v2.0/projects/${projectId}?${query}`, "PATCH", self): the path and the method of one call
const CALL = /GenericAPIFn\)\((?:`([^`]*)`|"([^"]*)"),\s*"([A-Z]+)"/;

const lines = [];
for (const name of Object.keys(client)) {
  if (typeof client[name] !== "function") {
    continue;
  }
  const found = client[name].toString().match(CALL);
  if (!found) {
    continue;
  }
  const path = (found[1] ?? found[2]).split("?")[0].replace(/\$\{[^}]*\}/g, "{}").replace(/^\/new(?=\/)/, "");
  lines.push(`${name}\t${found[3]}\t${path}`);
}
lines.sort();
console.log(`# @cognigy/rest-api-client ${version}: method, HTTP method, path (deploy/compat/operation-ids.mjs)`);
lines.forEach((line) => console.log(line));
