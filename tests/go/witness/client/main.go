// Command client is a C2SP tlog-witness client (https://c2sp.org/tlog-witness, the revision after C2SP
// #280) written with Go's standard library and golang.org/x/mod/sumdb/note only (Debian
// golang-golang-x-mod-dev, GOPATH mode). It plays a log against a witness (ours, server/witness/app.ts,
// in tests/api/witness-go.test.ts) and checks the witness's answers to the letter of the spec:
//
//	GO111MODULE=off GOPATH=/usr/share/gocode go run main.go keygen <origin>
//	GO111MODULE=off GOPATH=/usr/share/gocode go run main.go run <witness URL> <log skey> <log vkey> <witness vkey>
//
// keygen prints a new log key (note.GenerateKey) as two lines: the signer key, then the verifier key (give
// it to the witness). run signs checkpoints with that key (note.NewSigner, note.Sign) and:
//
//  1. POST /add-checkpoint `old 0` with size N: 200, a cosignature line of the witness that verifies;
//  2. the same size N with another root hash, `old N`: 422 (C2SP #280; 409 before it), not cosigned;
//  3. stale `old` values (0, and N − 1 with a proof line) for a larger size: 409, Content-Type
//     text/x.tlog.size, body "N\n" (every 409 carries the witness's size);
//  4. GET /<hex SHA-256 of the origin>/checkpoint: the first checkpoint (root hash of step 1), with the
//     log's signature and the witness's cosignature (note.Open with both keys).
//
// Prints "OK ..." and exits 0, or prints the failure and exits 1.
package main

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/note"
)

// The tree size of the first checkpoint.
const size = 5

func fail(format string, args ...interface{}) {
	fmt.Printf("FAIL "+format+"\n", args...)
	os.Exit(1)
}

// cosigner verifies C2SP tlog-cosignature v1 lines (signature type 0x04): sig = 8-byte big-endian time ||
// Ed25519 signature of "cosignature/v1\ntime <t>\n" || body. x/mod's note knows only type 0x01.
type cosigner struct {
	name string
	hash uint32
	key  ed25519.PublicKey
}

func (c cosigner) Name() string    { return c.name }
func (c cosigner) KeyHash() uint32 { return c.hash }
func (c cosigner) Verify(msg, sig []byte) bool {
	if len(sig) != 8+ed25519.SignatureSize {
		return false
	}
	t := binary.BigEndian.Uint64(sig[:8])
	if t == 0 {
		return false // the spec: the cosignature MUST NOT omit the timestamp
	}
	m := append([]byte("cosignature/v1\ntime "+strconv.FormatUint(t, 10)+"\n"), msg...)
	return ed25519.Verify(c.key, m, sig[8:])
}

func parseCosigner(vkey string) cosigner {
	parts := strings.SplitN(vkey, "+", 3)
	if len(parts) != 3 {
		fail("malformed witness vkey %q", vkey)
	}
	raw, err := base64.StdEncoding.DecodeString(parts[2])
	if err != nil || len(raw) != 33 || raw[0] != 0x04 {
		fail("witness vkey %q is not an Ed25519 cosigner key (type 0x04)", vkey)
	}
	h := sha256.Sum256(append(append([]byte(parts[0]), '\n', 0x04), raw[1:]...))
	id := binary.BigEndian.Uint32(h[:4])
	if fmt.Sprintf("%08x", id) != parts[1] {
		fail("witness vkey %q: key ID does not match", vkey)
	}
	return cosigner{parts[0], id, ed25519.PublicKey(raw[1:])}
}

// root is a made-up root hash (the witness cannot tell: with old 0 no proof is sent).
func root(label string) string {
	h := sha256.Sum256([]byte(label))
	return base64.StdEncoding.EncodeToString(h[:])
}

// signed is the signed checkpoint note of origin, size n, root hash r.
func signed(signer note.Signer, n int, r string) []byte {
	msg, err := note.Sign(&note.Note{Text: fmt.Sprintf("%s\n%d\n%s\n", signer.Name(), n, r)}, signer)
	if err != nil {
		fail("note.Sign: %v", err)
	}
	return msg
}

type answer struct {
	status int
	ctype  string
	body   string
}

func do(req *http.Request) answer {
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		fail("%s %s: %v", req.Method, req.URL, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		fail("%s %s: %v", req.Method, req.URL, err)
	}
	return answer{resp.StatusCode, resp.Header.Get("Content-Type"), string(b)}
}

// add POSTs an add-checkpoint request: "old <old>\n", the proof lines, an empty line, the note.
func add(witness string, old int, proof []string, cp []byte) answer {
	var b strings.Builder
	fmt.Fprintf(&b, "old %d\n", old)
	for _, p := range proof {
		b.WriteString(p + "\n")
	}
	b.WriteString("\n")
	b.Write(cp)
	req, err := http.NewRequest("POST", witness+"/add-checkpoint", strings.NewReader(b.String()))
	if err != nil {
		fail("%v", err)
	}
	return do(req)
}

func run(witness, skey, logVkey, witnessVkey string) {
	signer, err := note.NewSigner(skey)
	if err != nil {
		fail("note.NewSigner: %v", err)
	}
	origin := signer.Name()
	logV, err := note.NewVerifier(logVkey)
	if err != nil {
		fail("note.NewVerifier: %v", err)
	}
	w := parseCosigner(witnessVkey)
	both := note.VerifierList(logV, w)
	first := signed(signer, size, root("first"))

	// 1. The first checkpoint, from old 0 (no proof): cosigned.
	a := add(witness, 0, nil, first)
	if a.status != 200 || !strings.HasPrefix(a.body, "— "+w.name+" ") || !strings.HasSuffix(a.body, "\n") {
		fail("first checkpoint: %d %q", a.status, a.body)
	}
	if n, err := note.Open(append(append([]byte{}, first...), a.body...), both); err != nil || len(n.Sigs) != 2 {
		fail("the cosignature does not verify: %v", err)
	}

	// 2. Same size, another root hash, old = the witness's size: 422 (C2SP #280), no cosignature.
	fork := signed(signer, size, root("fork"))
	a = add(witness, size, nil, fork)
	if a.status != 422 || strings.Contains(a.body, "— ") {
		fail("same size, other root: want 422, got %d %q", a.status, a.body)
	}
	forkStatus := a.status

	// 3. Stale old sizes: 409, text/x.tlog.size, the witness's size and a newline.
	larger := signed(signer, size+3, root("larger"))
	conflicts := 0
	for _, c := range []struct {
		old   int
		proof []string
		cp    []byte
	}{
		{0, nil, larger},
		{size - 1, []string{root("proof line")}, larger},
		{0, nil, fork}, // the fork again, from a stale old: the size check comes first
	} {
		a = add(witness, c.old, c.proof, c.cp)
		if a.status != 409 || a.ctype != "text/x.tlog.size" || a.body != fmt.Sprintf("%d\n", size) {
			fail("old %d: want 409 text/x.tlog.size %q, got %d %q %q", c.old, fmt.Sprintf("%d\n", size), a.status, a.ctype, a.body)
		}
		conflicts++
	}

	// 4. The witness still holds the first checkpoint, cosigned.
	h := sha256.Sum256([]byte(origin))
	req, err := http.NewRequest("GET", witness+"/"+hex.EncodeToString(h[:])+"/checkpoint", nil)
	if err != nil {
		fail("%v", err)
	}
	a = do(req)
	if a.status != 200 {
		fail("GET checkpoint: %d %q", a.status, a.body)
	}
	n, err := note.Open([]byte(a.body), both)
	if err != nil || len(n.Sigs) != 2 {
		fail("the held checkpoint: %v %q", err, a.body)
	}
	if want := fmt.Sprintf("%s\n%d\n%s\n", origin, size, root("first")); n.Text != want {
		fail("the witness holds %q, want the first checkpoint %q", n.Text, want)
	}
	fmt.Printf("OK %s: cosigned size %d; same size other root %d; stale old 409 text/x.tlog.size %q x%d; holds the first root, cosigned\n",
		origin, size, forkStatus, fmt.Sprintf("%d\n", size), conflicts)
}

func main() {
	if len(os.Args) == 3 && os.Args[1] == "keygen" {
		skey, vkey, err := note.GenerateKey(rand.Reader, os.Args[2])
		if err != nil {
			fail("note.GenerateKey: %v", err)
		}
		fmt.Printf("%s\n%s\n", skey, vkey)
		return
	}
	if len(os.Args) == 6 && os.Args[1] == "run" {
		run(os.Args[2], os.Args[3], os.Args[4], os.Args[5])
		return
	}
	fmt.Println("usage: client keygen <origin> | client run <witness URL> <log skey> <log vkey> <witness vkey>")
	os.Exit(2)
}
