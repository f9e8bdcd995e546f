// Package webhooks checks the Service-Signature of a webhook delivery: Go standard library only (see docs/clients.md).
package webhooks

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"time"
)

// Verify reports whether header (Service-Signature: t=<unix seconds>,v1=<hex>) signs the raw body
// bytes with secret, and t is within 5 minutes of now (pass time.Now()).
func Verify(secret, header string, body []byte, now time.Time) bool {
	fields := map[string]string{}
	for _, part := range strings.Split(header, ",") {
		if k, v, ok := strings.Cut(part, "="); ok {
			fields[k] = v
		}
	}
	t, err := strconv.ParseInt(fields["t"], 10, 64)
	if err != nil || now.Sub(time.Unix(t, 0)).Abs() > 5*time.Minute {
		return false
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(fields["t"] + "."))
	mac.Write(body)
	return hmac.Equal([]byte(hex.EncodeToString(mac.Sum(nil))), []byte(fields["v1"]))
}
