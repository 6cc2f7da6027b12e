package linalg

// lists is a set of growable int32 lists kept in one flat buffer, for the
// elimination graph of the symbolic analysis. A list that outgrows its
// room moves to the free end of the buffer; when the free end is used up
// the live lists are copied, compacted, into a second buffer, and only
// when they do not fit there either do the buffers grow (doubling). So
// once the buffers have met the largest elimination graph, no pattern
// allocates, however the fill moves between blocks (with one slice per
// list, every list grew on its own and patterns kept allocating: 313 of
// 900 steps of a 640-body island run).
type lists struct {
	data, spare []int32
	off, n, cp  []int32 // per list: start, length and room in data
	top         int     // first free entry of data
}

// reset makes k empty lists, keeping the storage.
func (l *lists) reset(k int) {
	l.off = resizeInt32(l.off, k)
	l.n = resizeInt32(l.n, k)
	l.cp = resizeInt32(l.cp, k)
	clear(l.off)
	clear(l.n)
	clear(l.cp)
	l.top = 0
}

// get returns list i. The view is valid until the next reserve.
func (l *lists) get(i int) []int32 { return l.data[l.off[i] : l.off[i]+l.n[i]] }

// room returns list i with its full room (length cp[i]), for in-place
// rewriting followed by setLen. Valid until the next reserve.
func (l *lists) room(i int) []int32 { return l.data[l.off[i] : l.off[i]+l.cp[i]] }

// setLen sets the length of list i (at most its room).
func (l *lists) setLen(i, n int) { l.n[i] = int32(n) }

// clearList empties list i; its room is kept until the next compaction.
func (l *lists) clearList(i int) { l.n[i] = 0 }

// push appends x to list i.
func (l *lists) push(i int, x int32) {
	l.reserve(i, int(l.n[i])+1)
	l.data[l.off[i]+l.n[i]] = x
	l.n[i]++
}

// reserve makes the room of list i at least need, moving it (and, when
// the buffer is full, compacting every list) if it must.
func (l *lists) reserve(i, need int) {
	if int(l.cp[i]) >= need {
		return
	}
	want := max(need, 2*int(l.cp[i]), 4)
	if l.top+want > len(l.data) {
		l.compact(want)
	}
	copy(l.data[l.top:], l.get(i))
	l.off[i], l.cp[i] = int32(l.top), int32(want)
	l.top += want
}

// compact copies every list, with room equal to its length, into the
// spare buffer and swaps the buffers; a buffer grows (the only
// allocation) when the live entries plus extra would fill more than half
// of it, so that the free end left has room for extra.
func (l *lists) compact(extra int) {
	live := extra
	for _, n := range l.n {
		live += int(n)
	}
	src, dst := l.data, l.spare
	if 2*live > len(dst) || len(dst) < len(src) {
		dst = make([]int32, max(2*live, len(src), 64))
	}
	top := 0
	for i, n := range l.n {
		copy(dst[top:], src[l.off[i]:l.off[i]+n])
		l.off[i], l.cp[i] = int32(top), n
		top += int(n)
	}
	l.data, l.spare, l.top = dst, src, top
}
