import type http from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";
import { closeServer, listen } from "./http-server";

const timeouts = { headersTimeout: 300, requestTimeout: 600, keepAliveTimeout: 300, connectionsCheckingInterval: 50 };

/** Opens a raw connection and resolves with what the server wrote and how long until it closed. */
function connection(server: http.Server, write: (socket: Socket) => void): Promise<{ answer: string; closedAfterMs: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect((server.address() as AddressInfo).port, "127.0.0.1", () => write(socket));
    let answer = "";
    socket.on("data", (chunk) => (answer += chunk.toString()));
    socket.on("error", reject);
    socket.on("close", () => resolve({ answer, closedAfterMs: Date.now() - started }));
    // A cut that never comes fails the test rather than hanging it.
    setTimeout(() => socket.destroy(new Error("the server kept the connection open")), 5_000).unref();
  });
}

describe("listen with timeouts", () => {
  let server: http.Server;
  beforeAll(async () => {
    server = await listen(
      (req, res) => {
        req.resume();
        req.on("end", () => res.end("ok"));
      },
      0,
      "127.0.0.1",
      timeouts,
    );
  });
  afterAll(() => closeServer(server));

  it("cuts a slow-loris request whose headers never end, with 408", async () => {
    const { answer, closedAfterMs } = await connection(server, (socket) => socket.write("GET / HTTP/1.1\r\nHost: x\r\nX-Slow: 1\r\n"));
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(closedAfterMs).toBeGreaterThanOrEqual(timeouts.headersTimeout - 50);
    expect(closedAfterMs).toBeLessThan(3_000);
  });

  it("cuts a request whose body trickles in past the request timeout", async () => {
    const { answer, closedAfterMs } = await connection(server, (socket) => {
      socket.write("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n");
      const drip = setInterval(() => (socket.writable ? socket.write("x") : clearInterval(drip)), 100);
      socket.on("close", () => clearInterval(drip));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(closedAfterMs).toBeGreaterThanOrEqual(timeouts.requestTimeout - 50);
    expect(closedAfterMs).toBeLessThan(3_000);
  });

  it("closes an idle keep-alive connection after the keep-alive timeout, having answered its request", async () => {
    const { answer, closedAfterMs } = await connection(server, (socket) => socket.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
    expect(answer).toMatch(/^HTTP\/1\.1 200 [\s\S]*ok$/);
    expect(closedAfterMs).toBeGreaterThanOrEqual(timeouts.keepAliveTimeout - 50);
    expect(closedAfterMs).toBeLessThan(3_000);
  });
});
