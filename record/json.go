package record

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strings"
)

// marshalNullable encodes v like encoding/json, except that a non-finite
// float64 becomes null instead of an error. It handles what the output
// structs use: structs (fields in order, json tags with omitempty),
// slices, arrays, pointers and scalars. Types with their own MarshalJSON
// below the top level are encoded by it.
func marshalNullable(v any) ([]byte, error) {
	var b bytes.Buffer
	if err := encodeNullable(&b, reflect.ValueOf(v), true); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

var marshalerType = reflect.TypeFor[json.Marshaler]()

func encodeNullable(b *bytes.Buffer, v reflect.Value, top bool) error {
	if !top && v.Type().Implements(marshalerType) {
		data, err := json.Marshal(v.Interface())
		b.Write(data)
		return err
	}
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		if x := v.Float(); math.IsNaN(x) || math.IsInf(x, 0) {
			b.WriteString("null")
			return nil
		}
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			b.WriteString("null")
			return nil
		}
		return encodeNullable(b, v.Elem(), false)
	case reflect.Slice:
		if v.IsNil() {
			b.WriteString("null")
			return nil
		}
		fallthrough
	case reflect.Array:
		b.WriteByte('[')
		for i := range v.Len() {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := encodeNullable(b, v.Index(i), false); err != nil {
				return err
			}
		}
		b.WriteByte(']')
		return nil
	case reflect.Struct:
		return encodeStruct(b, v)
	}
	data, err := json.Marshal(v.Interface())
	if err != nil {
		return fmt.Errorf("record: json: %w", err)
	}
	b.Write(data)
	return nil
}

func encodeStruct(b *bytes.Buffer, v reflect.Value) error {
	b.WriteByte('{')
	n := 0
	for i := range v.NumField() {
		f := v.Type().Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if strings.Contains(opts, "omitempty") && v.Field(i).IsZero() {
			continue
		}
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		key, _ := json.Marshal(name)
		b.Write(key)
		b.WriteByte(':')
		if err := encodeNullable(b, v.Field(i), false); err != nil {
			return err
		}
	}
	b.WriteByte('}')
	return nil
}
