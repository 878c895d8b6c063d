// The baseline for the load test: a bare node:http server answering a fixed body of the given size,
// so the difference to the portal is the cost of rendering. Runs in its own process, as the portal
// does, so that it does not share an event loop with autocannon. Reports its port over IPC.
import { createServer } from "node:http";

const body = Buffer.alloc(Number(process.argv[2]), "x");
const server = createServer((_request, response) => {
  response.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Content-Length": body.length });
  response.end(body);
});
server.listen(0, "127.0.0.1", () => process.send({ port: server.address().port }));
process.on("disconnect", () => process.exit(0));
