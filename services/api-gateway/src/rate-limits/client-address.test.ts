import { clientAddressKey } from "./client-address";

describe("clientAddressKey", () => {
  it.each<[string | undefined, string]>([
    ["203.0.113.7", "203.0.113.7"],
    ["::ffff:127.0.0.1", "127.0.0.1"],
    ["::FFFF:203.0.113.7", "203.0.113.7"],
    ["2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"],
    ["2001:db8:1:2::9", "2001:db8:1:2::/64"],
    ["2001:0DB8:0001:0002:aaaa::1", "2001:db8:1:2::/64"],
    ["2001:db8::1", "2001:db8:0:0::/64"],
    ["::1", "0:0:0:0::/64"],
    ["fe80::1%eth0", "fe80:0:0:0::/64"],
    ["64:ff9b::203.0.113.7", "64:ff9b:0:0::/64"],
    [undefined, "unknown"],
    ["", "unknown"],
  ])("%s counts as %s", (remote, key) => {
    expect(clientAddressKey(remote)).toBe(key);
  });
});
