// Command cosigned checks a cosigned checkpoint with Go's reference signed-note package
// (golang.org/x/mod/sumdb/note): the log's Ed25519 signature (note.NewVerifier of the log's vkey) and the
// Ed25519 cosignatures of C2SP tlog-cosignature v1 (a note.Verifier of signature type 0x04, written here,
// since x/mod knows only type 0x01). A further Ed25519 key (type 0x01) is checked with note.NewVerifier: the
// two log keys of a key rotation's transition checkpoint. Every given key must have verified.
//
//	GO111MODULE=off GOPATH=/usr/share/gocode go run main.go <note file> <log vkey> [<witness or log vkey>...]
//
// Prints "verified <name>..." and exits 0, or prints the error and exits 1.
package main

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/note"
)

// cosigner verifies tlog-cosignature v1: sig = 8-byte big-endian time || Ed25519 signature of
// "cosignature/v1\ntime <t>\n" || body.
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
	m := append([]byte("cosignature/v1\ntime "+strconv.FormatUint(t, 10)+"\n"), msg...)
	return ed25519.Verify(c.key, m, sig[8:])
}

func parseCosigner(vkey string) (note.Verifier, error) {
	parts := strings.SplitN(vkey, "+", 3)
	if len(parts) != 3 {
		return nil, fmt.Errorf("malformed vkey %q", vkey)
	}
	raw, err := base64.StdEncoding.DecodeString(parts[2])
	if err != nil || len(raw) != 33 || raw[0] != 0x04 {
		return nil, fmt.Errorf("vkey %q is not an Ed25519 cosigner key (type 0x04)", vkey)
	}
	h := sha256.Sum256(append(append([]byte(parts[0]), '\n', 0x04), raw[1:]...))
	id := binary.BigEndian.Uint32(h[:4])
	if fmt.Sprintf("%08x", id) != parts[1] {
		return nil, fmt.Errorf("vkey %q: key ID does not match", vkey)
	}
	return cosigner{parts[0], id, ed25519.PublicKey(raw[1:])}, nil
}

// isEd25519NoteKey reports whether vkey is a signed-note Ed25519 key (algorithm byte 0x01).
func isEd25519NoteKey(vkey string) bool {
	parts := strings.SplitN(vkey, "+", 3)
	if len(parts) != 3 {
		return false
	}
	raw, err := base64.StdEncoding.DecodeString(parts[2])
	return err == nil && len(raw) == 33 && raw[0] == 0x01
}

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: cosigned <note file> <log vkey> [<witness vkey>...]")
		os.Exit(2)
	}
	msg, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	logV, err := note.NewVerifier(os.Args[2])
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	verifiers := []note.Verifier{logV}
	for _, v := range os.Args[3:] {
		var c note.Verifier
		var err error
		if isEd25519NoteKey(v) {
			// An Ed25519 note key (type 0x01): a second log key, as on a key rotation's transition checkpoint.
			c, err = note.NewVerifier(v)
		} else {
			c, err = parseCosigner(v)
		}
		if err != nil {
			fmt.Println(err)
			os.Exit(1)
		}
		verifiers = append(verifiers, c)
	}
	n, err := note.Open(msg, note.VerifierList(verifiers...))
	if err != nil {
		fmt.Println("note.Open:", err)
		os.Exit(1)
	}
	if len(n.Sigs) != len(verifiers) {
		fmt.Printf("only %d of %d keys signed\n", len(n.Sigs), len(verifiers))
		os.Exit(1)
	}
	names := []string{}
	for _, s := range n.Sigs {
		names = append(names, s.Name)
	}
	fmt.Println("verified", strings.Join(names, " "))
}
