// The document the gateway merges from both services, one directory up from this page (/new/docs/ -> /new/openapi.json).
window.ui = SwaggerUIBundle({
  url: new URL("../openapi.json", window.location.href).toString(),
  dom_id: "#swagger-ui",
  deepLinking: true,
});
