package canasta_test

import (
	"fmt"
	"strings"
	"testing"

	canasta "github.com/canasta-rules/canasta/clients/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// No server: grpc.NewClient (and so Dial) connects only on the first call.
const (
	hostToken = "ct1.host.dev-1.SECRET-MAC"
	seatToken = "ct1.s0.dev-1.SEAT-SECRET"
	nowhere   = "127.0.0.1:1"
)

// printed is every form fmt gives c, by its format.
func printed(c any) map[string]string {
	out := map[string]string{}
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%d", "%10.3v"} {
		out[verb] = fmt.Sprintf(verb, c)
	}
	out["Sprint"] = fmt.Sprint(c)
	out["Sprintln"] = fmt.Sprintln(c)
	// a client inside another value, as a logged struct would hold it
	out["in a struct %+v"] = fmt.Sprintf("%+v", struct{ Client any }{c})
	out["in a struct %#v"] = fmt.Sprintf("%#v", struct{ Client any }{c})
	out["in a slice %v"] = fmt.Sprintf("%v", []any{c})
	return out
}

func assertNoSecret(t *testing.T, name string, c any, secrets ...string) {
	t.Helper()
	for how, text := range printed(c) {
		for _, secret := range secrets {
			if strings.Contains(text, secret) {
				t.Errorf("%s: %s shows the token %q: %s", name, how, secret, text)
			}
		}
	}
}

func TestPrintingAClientHidesItsToken(t *testing.T) {
	dialed, err := canasta.Dial(nowhere, canasta.WithToken(hostToken))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = dialed.Close() })
	conn, err := grpc.NewClient(nowhere, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	owned := canasta.New(conn, canasta.WithToken(hostToken))

	clients := map[string]*canasta.Client{
		"Dial":                      dialed,
		"New":                       owned,
		"Dial.WithToken(seat)":      dialed.WithToken(seatToken),
		"New.WithToken(seat)":       owned.WithToken(seatToken),
		"WithToken(\"\")":           dialed.WithToken(""),
		"no token, WithToken(host)": canasta.New(conn).WithToken(hostToken),
	}
	for name, c := range clients {
		assertNoSecret(t, name, c, hostToken, seatToken)
		assertNoSecret(t, name+" (value)", *c, hostToken, seatToken)
	}

	// what is not a secret still shows
	for verb, want := range map[string]string{"%v": "token: redacted", "%+v": `target: "` + nowhere + `"`,
		"%#v": "canasta.Client{", "%s": "retries: 0"} {
		if got := fmt.Sprintf(verb, dialed); !strings.Contains(got, want) {
			t.Errorf("%s of a client: %s, without %q", verb, got, want)
		}
	}
	if got := fmt.Sprint(dialed.WithToken("")); !strings.Contains(got, "token: none") {
		t.Errorf("a client without a token prints %s, not token: none", got)
	}
	if got := fmt.Sprint(owned.WithToken(seatToken)); !strings.Contains(got, nowhere) {
		t.Errorf("a copy of New's client prints %s, without its target", got)
	}
	var none *canasta.Client
	if got := fmt.Sprint(none); got != "<nil>" {
		t.Errorf("a nil client prints %s", got)
	}
}

// As in every SDK: grpc-go quoted a target's user:password@ in each call's Unavailable
// error, and a client printed it.
func TestATargetsUserinfoIsNeverShown(t *testing.T) {
	for target, shown := range map[string]string{
		"user:PASS-SECRET@127.0.0.1:1":               "***@127.0.0.1:1",
		"dns://PASS-SECRET@127.0.0.1:53/localhost:1": "dns://***@127.0.0.1:53/localhost:1",
	} {
		c, err := canasta.Dial(target)
		if err == nil || !strings.Contains(err.Error(), "cannot carry a user or password") ||
			!strings.Contains(err.Error(), shown) || strings.Contains(err.Error(), "PASS-SECRET") {
			t.Errorf("Dial(%q): %v", target, err)
		}
		if c != nil {
			_ = c.Close()
		}
		conn, err := grpc.NewClient(target, grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = conn.Close() })
		assertNoSecret(t, "New("+shown+")", canasta.New(conn), "PASS-SECRET")
		if got := fmt.Sprint(canasta.New(conn)); !strings.Contains(got, shown) {
			t.Errorf("New's client prints %s, without %q", got, shown)
		}
	}
}
