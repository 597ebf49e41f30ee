// The baseline server: Node's own http module answering a small JSON object after parsing the
// request's JSON body, nothing else. Whatever a route costs beyond this is the route's.
import http from "node:http";

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    let keys = 0;
    if (chunks.length > 0) keys = Object.keys(JSON.parse(Buffer.concat(chunks).toString())).length;
    const out = JSON.stringify({ received: keys });
    res.writeHead(200, { "content-type": "application/json", "content-length": out.length });
    res.end(out);
  });
});
server.keepAliveTimeout = 72_000;
server.listen(Number(process.env.PORT), "127.0.0.1");
