// Package fmath holds scalar functions of the hot loops, written so that the
// compiler inlines them and giving the same bits as the standard library's.
package fmath
