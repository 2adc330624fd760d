// Compatibility check: password sign-ins through the UNMODIFIED official client (setCredentials type "Basic"):
// wrong passwords are counted, the sixth try is refused with 429 and Retry-After even with the right password (client
// 0.19.0 maps no error class to 429, so it raises its InternalServerError; it does honour Retry-After on GETs), an administrator's resetFailedLoginAttempts lifts the lock, and the user reads their
// own sign-ins with indexLoginAttemptsMe and readLastLoginAttemptMe.
// Same output and environment as the other scripts (harness.mjs); API_KEY must be a system administrator's (the
// bootstrap key), because the script creates an organisation for the user it locks.

import {
  RestAPIClient, clientVersion, BASE_URL, API_KEY, short, lastStatus, lastEntry, check, errText, step, rejects,
  finish,
} from "./harness.mjs";

const admin = new RestAPIClient({ baseUrl: BASE_URL });
admin.setCredentials({ type: "ApiKey", apiKey: API_KEY });
const stamp = Date.now();
const email = `signer-${stamp}@example.com`;
const password = `password-${stamp}`;
let userId;

function basic(pass) {
  const client = new RestAPIClient({ baseUrl: BASE_URL });
  client.setCredentials({ type: "Basic", username: email, password: pass });
  return client;
}

console.log(`# @cognigy/rest-api-client ${clientVersion} against ${BASE_URL}: password sign-ins`);

try {
  await step("an organisation whose admin signs in with a password", async () => {
    const res = await fetch(`${BASE_URL}/new/management/v2.0/organisations`, { method: "POST",
      headers: { "Content-Type": "application/json", "X-API-Key": API_KEY },
      body: JSON.stringify({ name: `Signer ${stamp}`, adminEmail: email, adminPassword: password }) });
    const body = await res.json();
    check(res.status === 201, `organisation: HTTP ${res.status} ${short(body)}`);
    userId = body.admin._id;
    const projects = await basic(password).indexProjects({});
    check(Array.isArray(projects.items), `indexProjects with Basic: ${short(projects)}`);
  }, { required: true });

  await step("five wrong passwords -> 401 each, then the right one -> 429 with Retry-After", async () => {
    for (let i = 0; i < 5; i++) {
      await rejects(() => basic(`guess-${i}`).indexProjects({}));
      check(lastStatus() === 401, `wrong password ${i}: HTTP ${lastStatus()}`);
    }
    const err = await rejects(() => basic(password).indexProjects({}));
    check(lastStatus() === 429, `the right password while locked: HTTP ${lastStatus()} (${errText(err)})`);
    const retryAfter = lastEntry()?.responseHeaders?.["retry-after"];
    return `client raises ${err.constructor?.name}${retryAfter ? `, Retry-After ${retryAfter}` : ""}`;
  });

  await step("resetFailedLoginAttempts by a system administrator -> the user signs in again", async () => {
    const reset = await admin.resetFailedLoginAttempts({ userId });
    check(lastStatus() === 200 && JSON.stringify(reset) === "{}", `reset: HTTP ${lastStatus()} ${short(reset)}`);
    const projects = await basic(password).indexProjects({});
    check(Array.isArray(projects.items), `indexProjects after the reset: ${short(projects)}`);
  });

  await step("indexLoginAttemptsMe and readLastLoginAttemptMe show the user's own sign-ins at once", async () => {
    const me = basic(password);
    const attempts = await me.indexLoginAttemptsMe({ limit: 100 });
    const statuses = attempts.items.map((a) => a.status);
    check(JSON.stringify(statuses) === JSON.stringify(["success", "failed", "failed", "failed", "failed", "failed",
      "success"]), `sign-ins ${short(statuses)}`);
    check(attempts.items.every((a) => typeof a.timestamp === "number"), `timestamps ${short(attempts.items)}`);
    const last = await me.readLastLoginAttemptMe();
    check(last.status === "success", `last sign-in ${short(last)}`);
  });
} catch (err) {
  console.log(`# ${err.message}`);
}

finish();
