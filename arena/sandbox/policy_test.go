package sandbox

import (
	"fmt"
	"slices"
	"testing"
	"time"
)

func TestParseBytes(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		bad  bool
	}{
		{in: "512MiB", want: 512 << 20},
		{in: "512 MiB", want: 512 << 20},
		{in: "2G", want: 2 << 30},
		{in: "64k", want: 64 << 10},
		{in: "1000000", want: 1000000},
		{in: "1 TiB", want: 1 << 40},
		{in: "", bad: true},
		{in: "MiB", bad: true},
		{in: "12 parsecs", bad: true},
		{in: "99999999999 TiB", bad: true},
	}
	for _, tt := range tests {
		got, err := ParseBytes(tt.in)
		if tt.bad {
			if err == nil {
				t.Errorf("ParseBytes(%q) = %d, want an error", tt.in, got)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseBytes(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
		}
		if back, err := ParseBytes(FormatBytes(got)); err != nil || back != got {
			t.Errorf("FormatBytes(%d) = %q does not read back: %d, %v", got, FormatBytes(got), back, err)
		}
	}
}

func TestParseCPUs(t *testing.T) {
	tests := []struct {
		in   string
		want []int
		bad  bool
	}{
		{in: "0", want: []int{0}},
		{in: "0-3,6", want: []int{0, 1, 2, 3, 6}},
		{in: " 1 , 3-4 ", want: []int{1, 3, 4}},
		{in: "2,2,1", want: []int{2, 1}},
		{in: "3-1", bad: true},
		{in: "a", bad: true},
		{in: "", bad: true},
		{in: "-1", bad: true},
	}
	for _, tt := range tests {
		got, err := ParseCPUs(tt.in)
		if tt.bad {
			if err == nil {
				t.Errorf("ParseCPUs(%q) = %v, want an error", tt.in, got)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("ParseCPUs(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
	if got := FormatCPUs([]int{0, 1, 2, 3, 6, 8, 9}); got != "0-3,6,8-9" {
		t.Errorf("FormatCPUs = %q", got)
	}
}

func TestLimitsString(t *testing.T) {
	if got := (Limits{}).String(); got != "none" {
		t.Errorf("zero Limits = %q", got)
	}
	l := Limits{Memory: 512 << 20, Processes: 64, OpenFiles: 100, FileSize: 1 << 20, CPUTime: 10 * time.Second}
	want := "memory 512 MiB, processes 64, open files 100, file size 1 MiB, CPU time 10s per game"
	if got := l.String(); got != want {
		t.Errorf("Limits.String() = %q, want %q", got, want)
	}
}

func TestCheckEmptyPolicy(t *testing.T) {
	if err := Check(&Policy{}); err != nil {
		t.Errorf("Check of an empty policy: %v", err)
	}
	if err := Check(&Policy{Isolate: true, Optional: true}); err != nil {
		t.Errorf("Check of an optional policy: %v", err)
	}
}

func ExampleParseBytes() {
	n, _ := ParseBytes("512MiB")
	fmt.Println(n, FormatBytes(n))
	// Output: 536870912 512 MiB
}

func ExampleLimits_String() {
	fmt.Println(Limits{Memory: 1 << 30, Processes: 32})
	// Output: memory 1 GiB, processes 32
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"512MiB", "0-3,6", "1 G", "", "9-", "7,7"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if n, err := ParseBytes(s); err == nil {
			if n < 0 {
				t.Errorf("ParseBytes(%q) = %d", s, n)
			}
			if back, err := ParseBytes(FormatBytes(n)); err != nil || back != n {
				t.Errorf("FormatBytes(%d) = %q reads back as %d, %v", n, FormatBytes(n), back, err)
			}
		}
		if cpus, err := ParseCPUs(s); err == nil {
			back, err := ParseCPUs(FormatCPUs(slices.Sorted(slices.Values(cpus))))
			if err != nil || len(back) != len(cpus) {
				t.Errorf("ParseCPUs(%q) = %v does not read back: %v, %v", s, cpus, back, err)
			}
		}
	})
}
