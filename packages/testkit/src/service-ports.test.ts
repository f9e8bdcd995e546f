import { parsePortRange, servicePort, type PortRange } from "./service-ports";

describe("parsePortRange", () => {
  it.each<[string, PortRange | undefined]>([
    ["32768\t60999\n", { low: 32768, high: 60999 }],
    ["1024 65535", { low: 1024, high: 65535 }],
    ["", undefined],
    ["60999 32768", undefined],
    ["0 100", undefined],
    ["32768 70000", undefined],
  ])("%j", (text, expected) => {
    expect(parsePortRange(text)).toEqual(expected);
  });
});

describe("servicePort", () => {
  const bounds = (range: PortRange) => {
    const asked: Array<[number, number]> = [];
    const port = servicePort(range, (low, high) => (asked.push([low, high]), high - 1));
    return { port, asked };
  };

  it("picks below Linux's default ephemeral range, above the ports our parts listen on", () => {
    expect(bounds({ low: 32768, high: 60999 })).toEqual({ port: 32767, asked: [[20000, 32768]] });
  });

  it("follows a system whose range starts lower", () => {
    expect(bounds({ low: 28000, high: 60999 })).toEqual({ port: 27999, asked: [[20000, 28000]] });
  });

  it("leaves the choice to the system when its range leaves no room below", () => {
    expect(bounds({ low: 1024, high: 65535 })).toEqual({ port: undefined, asked: [] });
  });

  it("never picks inside the range or below 20000, whatever the draw", () => {
    for (let i = 0; i < 1000; i++) {
      const port = servicePort({ low: 32768, high: 60999 })!;
      expect(port).toBeGreaterThanOrEqual(20000);
      expect(port).toBeLessThan(32768);
    }
  });
});
