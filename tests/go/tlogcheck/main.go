// Command tlogcheck checks baas-admin's transparency log with Go's reference packages
// golang.org/x/mod/sumdb/note and golang.org/x/mod/sumdb/tlog (Debian golang-golang-x-mod-dev), as an
// outside auditor would (docs/ledger.md section 10). Run in GOPATH mode:
//
//	GO111MODULE=off GOPATH=/usr/share/gocode go run tests/go/tlogcheck/main.go server <prefix> <vkey> <old-note-file>...
//	GO111MODULE=off GOPATH=/usr/share/gocode go run tests/go/tlogcheck/main.go batch < cases.jsonl
//
// server: <prefix> is the log's tlog-tiles prefix (e.g. http://127.0.0.1:8080/baas-api/public/log/artchannel).
// It opens the served checkpoint and the older ones (one or more files) with note.Open, reads every entry
// through the tiles (tlog.TileHashReader, which verifies each tile against the checkpoint's root) and the
// entry bundles, and checks each served inclusion proof with tlog.CheckRecord. Then, for each older note, it reads the log as a client still holding that checkpoint
// would (C2SP tlog-tiles, "Partial Tiles": the log must serve the partial tiles of every size it signed a
// checkpoint for): tlog.TileHashReader over the older tree, whose partial tiles have other widths than the
// latest's, gives tlog.TreeHash = the older root, the record hashes of the older size's last (partial)
// entry bundle, and tlog.ProveRecord proofs that tlog.CheckRecord accepts at the older size; the
// consistency proof from the older to the latest is checked both as served and as tlog.ProveTree computes
// it from the latest tiles. Prints "OK ..." and exits 0, or prints the failure and exits 1.
//
// batch: one JSON case per line {"kind":"record"|"tree","t":..,"th":b64,"n":..,"h":b64,"proof":[b64]};
// prints "ok" or "fail" per line (tlog.CheckRecord / tlog.CheckTree).
package main

import (
	"bufio"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

func fail(format string, args ...interface{}) {
	fmt.Printf("FAIL "+format+"\n", args...)
	os.Exit(1)
}

func get(url string) []byte {
	resp, err := http.Get(url)
	if err != nil {
		fail("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != 200 {
		fail("GET %s: %d %v %s", url, resp.StatusCode, err, data)
	}
	return data
}

type checkpoint struct {
	origin string
	tree   tlog.Tree
}

func open(text []byte, verifiers note.Verifiers) checkpoint {
	n, err := note.Open(text, verifiers)
	if err != nil {
		fail("note.Open: %v\n%s", err, text)
	}
	lines := strings.Split(n.Text, "\n")
	if len(lines) < 4 {
		fail("checkpoint has %d lines", len(lines))
	}
	size, err := strconv.ParseInt(lines[1], 10, 64)
	if err != nil {
		fail("checkpoint size: %v", err)
	}
	h, err := tlog.ParseHash(lines[2])
	if err != nil {
		fail("checkpoint root hash: %v", err)
	}
	return checkpoint{origin: lines[0], tree: tlog.Tree{N: size, Hash: h}}
}

// tiles reads C2SP tlog-tiles (height 8) from the server for tlog.TileHashReader.
type tiles struct{ prefix string }

func (t tiles) Height() int { return 8 }

func c2spPath(tile tlog.Tile) string {
	// Go's Tile.Path is tile/<H>/<L>/<N>[.p/<W>]; C2SP drops the height.
	p := tile.Path()
	return "tile/" + strings.SplitN(p, "/", 3)[2]
}

func (t tiles) ReadTiles(ts []tlog.Tile) ([][]byte, error) {
	out := make([][]byte, len(ts))
	for i, tile := range ts {
		out[i] = get(t.prefix + "/" + c2spPath(tile))
	}
	return out, nil
}

func (t tiles) SaveTiles([]tlog.Tile, [][]byte) {}

type envelope struct {
	Code int             `json:"code"`
	Data json.RawMessage `json:"data"`
}

func api(url string, v interface{}) {
	var env envelope
	if err := json.Unmarshal(get(url), &env); err != nil {
		fail("%s: %v", url, err)
	}
	if err := json.Unmarshal(env.Data, v); err != nil {
		fail("%s: %v", url, err)
	}
}

func server(prefix, vkey string, oldFiles []string) {
	v, err := note.NewVerifier(vkey)
	if err != nil {
		fail("note.NewVerifier: %v", err)
	}
	verifiers := note.VerifierList(v)
	latest := open(get(prefix+"/checkpoint"), verifiers)
	if v.Name() != latest.origin {
		fail("origin %q, key name %q", latest.origin, v.Name())
	}
	olds := make([]checkpoint, len(oldFiles))
	for i, f := range oldFiles {
		text, err := os.ReadFile(f)
		if err != nil {
			fail("%v", err)
		}
		olds[i] = open(text, verifiers)
		if olds[i].origin != latest.origin {
			fail("origin %q / %q", olds[i].origin, latest.origin)
		}
	}
	thr := tlog.TileHashReader(latest.tree, tiles{prefix})
	n := latest.tree.N
	for b := int64(0); b*256 < n; b++ {
		w := n - b*256
		if w > 256 {
			w = 256
		}
		for i, entry := range entryBundle(prefix, b, w) {
			index := b*256 + int64(i)
			hs, err := thr.ReadHashes([]int64{tlog.StoredHashIndex(0, index)})
			if err != nil {
				fail("tiles: %v", err)
			}
			if tlog.RecordHash(entry) != hs[0] {
				fail("entry %d does not hash to its tile's record hash", index)
			}
			var inc struct{ Proof tlog.RecordProof }
			api(fmt.Sprintf("%s/proof/inclusion?index=%d&size=%d", prefix, index, n), &inc)
			if err := tlog.CheckRecord(inc.Proof, n, latest.tree.Hash, index, hs[0]); err != nil {
				fail("tlog.CheckRecord(%d in %d): %v", index, n, err)
			}
			p, err := tlog.ProveRecord(n, index, thr)
			if err != nil || tlog.CheckRecord(p, n, latest.tree.Hash, index, hs[0]) != nil {
				fail("tlog.ProveRecord through the tiles: %v", err)
			}
		}
	}
	fmt.Printf("OK origin %s: note.Open, %d entries read through tiles, CheckRecord each", latest.origin, n)
	for _, old := range olds {
		fmt.Printf("; %s", olderClient(prefix, old, latest, thr))
	}
	fmt.Println()
}

// entryBundle reads the entry bundle b of width w (C2SP tlog-tiles: partial when w < 256).
func entryBundle(prefix string, b, w int64) [][]byte {
	path := fmt.Sprintf("%s/tile/entries/%s", prefix, strings.SplitN(tlog.Tile{H: 8, L: 0, N: b, W: 256}.Path(), "/", 4)[3])
	if w < 256 {
		path = fmt.Sprintf("%s.p/%d", path, w)
	}
	bundle := get(path)
	out := make([][]byte, 0, w)
	for i := int64(0); i < w; i++ {
		if len(bundle) < 2 {
			fail("entry bundle %d.p/%d ends early", b, w)
		}
		l := int(binary.BigEndian.Uint16(bundle))
		if len(bundle) < 2+l {
			fail("entry bundle %d.p/%d ends early", b, w)
		}
		out = append(out, bundle[2:2+l])
		bundle = bundle[2+l:]
	}
	if len(bundle) != 0 {
		fail("entry bundle %d.p/%d: %d bytes after its %d entries", b, w, len(bundle), w)
	}
	return out
}

// olderClient reads the log as a client holding the older checkpoint old: every hash it needs comes from
// the tiles of old's tree (tlog.TileHashReader fetches, and checks against old's root, the partial tiles
// of old's size), and it checks the consistency proof from old to latest.
func olderClient(prefix string, old, latest checkpoint, latestReader tlog.HashReader) string {
	m := old.tree.N
	var cons struct{ Proof tlog.TreeProof }
	api(fmt.Sprintf("%s/proof/consistency?from=%d&to=%d", prefix, m, latest.tree.N), &cons)
	if err := tlog.CheckTree(cons.Proof, latest.tree.N, latest.tree.Hash, m, old.tree.Hash); err != nil {
		fail("tlog.CheckTree(%d → %d) of the served proof: %v", m, latest.tree.N, err)
	}
	tp, err := tlog.ProveTree(latest.tree.N, m, latestReader)
	if err != nil {
		fail("tlog.ProveTree(%d, %d) through the latest tiles: %v", latest.tree.N, m, err)
	}
	if err := tlog.CheckTree(tp, latest.tree.N, latest.tree.Hash, m, old.tree.Hash); err != nil {
		fail("tlog.CheckTree(%d → %d) of tlog.ProveTree: %v", m, latest.tree.N, err)
	}
	r := tlog.TileHashReader(old.tree, tiles{prefix})
	th, err := tlog.TreeHash(m, r)
	if err != nil {
		fail("tlog.TreeHash(%d) through the tiles of the older tree: %v", m, err)
	}
	if th != old.tree.Hash {
		fail("tlog.TreeHash(%d) = %v, the older checkpoint says %v", m, th, old.tree.Hash)
	}
	// The older size's last entry bundle (partial unless m is a multiple of 256) against the record
	// hashes of its tiles.
	last := (m - 1) / 256
	entries := entryBundle(prefix, last, m-last*256)
	indexes := make([]int64, len(entries))
	for i := range entries {
		indexes[i] = tlog.StoredHashIndex(0, last*256+int64(i))
	}
	hs, err := r.ReadHashes(indexes)
	if err != nil {
		fail("record hashes of the older tree: %v", err)
	}
	for i, e := range entries {
		if tlog.RecordHash(e) != hs[i] {
			fail("entry %d does not hash to the older tree's record hash", last*256+int64(i))
		}
	}
	proved := 0
	for _, index := range []int64{0, m / 2, last * 256, m - 1} {
		h, err := r.ReadHashes([]int64{tlog.StoredHashIndex(0, index)})
		if err != nil {
			fail("record hash %d of the older tree: %v", index, err)
		}
		p, err := tlog.ProveRecord(m, index, r)
		if err != nil {
			fail("tlog.ProveRecord(%d, %d) through the older tiles: %v", m, index, err)
		}
		if err := tlog.CheckRecord(p, m, old.tree.Hash, index, h[0]); err != nil {
			fail("tlog.CheckRecord(%d in %d): %v", index, m, err)
		}
		var inc struct{ Proof tlog.RecordProof }
		api(fmt.Sprintf("%s/proof/inclusion?index=%d&size=%d", prefix, index, m), &inc)
		if err := tlog.CheckRecord(inc.Proof, m, old.tree.Hash, index, h[0]); err != nil {
			fail("tlog.CheckRecord(%d in %d) of the served proof: %v", index, m, err)
		}
		proved++
	}
	return fmt.Sprintf("older %d: CheckTree %d → %d, TreeHash through its tiles, %d entries of bundle %d, ProveRecord+CheckRecord %d",
		m, m, latest.tree.N, len(entries), last, proved)
}

type batchCase struct {
	Kind  string   `json:"kind"`
	T     int64    `json:"t"`
	TH    string   `json:"th"`
	N     int64    `json:"n"`
	H     string   `json:"h"`
	Proof []string `json:"proof"`
}

func hash(s string) tlog.Hash {
	var h tlog.Hash
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(b) != 32 {
		fail("bad hash %q", s)
	}
	copy(h[:], b)
	return h
}

func batch() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<24)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for in.Scan() {
		var c batchCase
		if err := json.Unmarshal(in.Bytes(), &c); err != nil {
			fail("case: %v", err)
		}
		proof := make([]tlog.Hash, len(c.Proof))
		for i, p := range c.Proof {
			proof[i] = hash(p)
		}
		var err error
		if c.Kind == "record" {
			err = tlog.CheckRecord(proof, c.T, hash(c.TH), c.N, hash(c.H))
		} else {
			err = tlog.CheckTree(proof, c.T, hash(c.TH), c.N, hash(c.H))
		}
		if err == nil {
			fmt.Fprintln(out, "ok")
		} else {
			fmt.Fprintln(out, "fail")
		}
	}
}

func main() {
	if len(os.Args) >= 5 && os.Args[1] == "server" {
		server(os.Args[2], os.Args[3], os.Args[4:])
		return
	}
	if len(os.Args) == 2 && os.Args[1] == "batch" {
		batch()
		return
	}
	fmt.Println("usage: tlogcheck server <prefix> <vkey> <old-note-file>... | tlogcheck batch < cases.jsonl")
	os.Exit(2)
}
