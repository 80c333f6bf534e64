// Command proofcheck checks a C2SP tlog-proof file (https://c2sp.org/tlog-proof) with Go's reference
// packages: the checkpoint's signatures with note.Open (the log's vkey; witness cosignatures are checked
// by tests/go/witness/cosigned), and the inclusion proof with tlog.CheckRecord, the leaf being
// tlog.RecordHash of the entry carried (base64) on the `extra` line (docs/witnesses.md section 11).
//
//	GO111MODULE=off GOPATH=/usr/share/gocode go run main.go <proof file> <log vkey>
//
// Prints "verified index <i> in tree <size> of <origin>" and exits 0, or prints the error and exits 1.
package main

import (
	"encoding/base64"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

func fail(f string, a ...interface{}) {
	fmt.Printf(f+"\n", a...)
	os.Exit(1)
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: proofcheck <proof file> <log vkey>")
		os.Exit(2)
	}
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		fail("%v", err)
	}
	text := string(data)
	split := strings.Index(text, "\n\n")
	if split < 0 {
		fail("no empty line before the checkpoint")
	}
	lines := strings.Split(text[:split], "\n")
	if lines[0] != "c2sp.org/tlog-proof@v1" {
		fail("first line is not c2sp.org/tlog-proof@v1")
	}
	lines = lines[1:]
	if len(lines) == 0 || !strings.HasPrefix(lines[0], "extra ") {
		fail("this log's proofs carry the entry on the extra line")
	}
	entry, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(lines[0], "extra "))
	if err != nil {
		fail("extra: %v", err)
	}
	lines = lines[1:]
	if len(lines) == 0 || !strings.HasPrefix(lines[0], "index ") {
		fail("no index line")
	}
	index, err := strconv.ParseInt(strings.TrimPrefix(lines[0], "index "), 10, 64)
	if err != nil {
		fail("index: %v", err)
	}
	var proof tlog.RecordProof
	for _, l := range lines[1:] {
		h, err := base64.StdEncoding.DecodeString(l)
		if err != nil || len(h) != tlog.HashSize {
			fail("bad proof line %q", l)
		}
		var hash tlog.Hash
		copy(hash[:], h)
		proof = append(proof, hash)
	}
	v, err := note.NewVerifier(os.Args[2])
	if err != nil {
		fail("%v", err)
	}
	n, err := note.Open([]byte(text[split+2:]), note.VerifierList(v))
	if err != nil {
		fail("note.Open: %v", err)
	}
	body := strings.Split(n.Text, "\n")
	if len(body) < 4 || body[0] != v.Name() {
		fail("the checkpoint's origin is not the key name %s", v.Name())
	}
	size, err := strconv.ParseInt(body[1], 10, 64)
	if err != nil {
		fail("size: %v", err)
	}
	root, err := base64.StdEncoding.DecodeString(body[2])
	if err != nil || len(root) != tlog.HashSize {
		fail("bad root hash")
	}
	var rootHash tlog.Hash
	copy(rootHash[:], root)
	if err := tlog.CheckRecord(proof, size, rootHash, index, tlog.RecordHash(entry)); err != nil {
		fail("tlog.CheckRecord: %v", err)
	}
	fmt.Printf("verified index %d in tree %d of %s\n", index, size, body[0])
}
