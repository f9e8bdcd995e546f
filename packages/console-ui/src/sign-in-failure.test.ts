import { ApiFailure } from "./api-error";
import { signInFailure } from "./sign-in-failure";

describe("signInFailure", () => {
  it.each<[unknown, boolean, string]>([
    [new ApiFailure(401, "unauthorized", "the email or password is wrong"), false, "The email or password is wrong."],
    [new ApiFailure(401, "unauthorized", "the sign-in link is not valid"), true, "This link is not valid any more. Ask your operator for a new one."],
    [new ApiFailure(401, "unauthorized", "this console user is disabled"), false, "This console user is disabled. Ask your operator to enable it."],
    [new ApiFailure(429, "rate_limited", "too many sign-ins", 42), false, "Too many sign-ins from here. Try again in 42 seconds."],
    [new ApiFailure(400, "invalid_json", "password must have at least 12 characters"), true, "The password must have at least 12 characters."],
    [new ApiFailure(500, "internal", "HTTP 500"), false, "Signing in failed on the service side. Try again in a minute."],
    [new TypeError("Failed to fetch"), false, "The console could not be reached. Check your connection and try again."],
  ])("%s (with a link: %s): %s", (failure, withLink, sentence) => {
    const said = signInFailure(failure, withLink);
    expect(said).toBe(sentence);
    expect(said.split(". ").length).toBeLessThanOrEqual(2);
  });
});
