package cluster_test

import (
	"bytes"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

// decodeStrict decodes one YAML document into a Kubernetes API object:
// through JSON, so that a field the type does not have, or a value of the
// wrong type, is an error.
func decodeStrict(t *testing.T, doc []byte, into any) {
	t.Helper()
	if err := yaml.UnmarshalStrict(doc, into); err != nil {
		t.Fatalf("strict decode as %T: %v\n%s", into, err, doc)
	}
}

// documents splits a YAML stream at its "---" lines.
func documents(t *testing.T, name string) [][]byte {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var docs [][]byte
	for _, d := range regexp.MustCompile(`(?m)^---\s*$`).Split(string(data), -1) {
		if strings.TrimSpace(regexp.MustCompile(`(?m)^\s*#.*$`).ReplaceAllString(d, "")) != "" {
			docs = append(docs, []byte(d))
		}
	}
	return docs
}

// shellWords splits the `exec "$ARENA" ...` line of a batch script into
// its words, quotes removed (the scripts quote whole words only).
func shellWords(t *testing.T, name string) []string {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(data)) {
		if rest, ok := strings.CutPrefix(line, `exec "$ARENA" `); ok {
			return strings.Fields(strings.ReplaceAll(rest, `"`, ""))
		}
	}
	t.Fatalf("%s has no exec \"$ARENA\" line", name)
	return nil
}

// TestKubernetesSlices decodes the Indexed Job strictly against the real
// API types and checks that its pods run the arena with the command line
// of slurm-slice.sbatch, which the Slurm test runs on a real cluster.
func TestKubernetesSlices(t *testing.T) {
	docs := documents(t, "k8s-slices.yaml")
	if len(docs) != 2 {
		t.Fatalf("k8s-slices.yaml has %d documents, want a PersistentVolumeClaim and a Job", len(docs))
	}
	var pvc corev1.PersistentVolumeClaim
	decodeStrict(t, docs[0], &pvc)
	var job batchv1.Job
	decodeStrict(t, docs[1], &job)
	if pvc.Kind != "PersistentVolumeClaim" || job.Kind != "Job" || job.APIVersion != "batch/v1" {
		t.Fatalf("kinds %s and %s %s, want PersistentVolumeClaim and batch/v1 Job", pvc.Kind, job.APIVersion, job.Kind)
	}
	if !slices.Contains(pvc.Spec.AccessModes, corev1.ReadWriteMany) {
		t.Errorf("the results volume is %v; every pod writes to it: want ReadWriteMany", pvc.Spec.AccessModes)
	}

	spec := job.Spec
	if spec.CompletionMode == nil || *spec.CompletionMode != batchv1.IndexedCompletion {
		t.Errorf("completionMode %v, want Indexed", spec.CompletionMode)
	}
	if spec.Completions == nil || spec.BackoffLimitPerIndex == nil || *spec.BackoffLimitPerIndex < 1 {
		t.Fatalf("completions %v, backoffLimitPerIndex %v: want both, a retry per index", spec.Completions, spec.BackoffLimitPerIndex)
	}
	n := int(*spec.Completions)
	pod := spec.Template.Spec
	if pod.RestartPolicy != corev1.RestartPolicyNever {
		t.Errorf("restartPolicy %q, want Never (backoffLimitPerIndex needs it)", pod.RestartPolicy)
	}
	if len(pod.Containers) != 1 {
		t.Fatalf("%d containers, want 1", len(pod.Containers))
	}
	c := pod.Containers[0]
	index := slices.IndexFunc(c.Env, func(e corev1.EnvVar) bool { return e.Name == "JOB_COMPLETION_INDEX" })
	if index < 0 || c.Env[index].ValueFrom == nil || c.Env[index].ValueFrom.FieldRef == nil ||
		c.Env[index].ValueFrom.FieldRef.FieldPath != "metadata.annotations['batch.kubernetes.io/job-completion-index']" {
		t.Errorf("JOB_COMPLETION_INDEX is not declared from the completion index annotation: %+v", c.Env)
	}

	// The results volume holds the slices; the configuration is mounted.
	mounts := map[string]string{}
	for _, m := range c.VolumeMounts {
		mounts[m.Name] = m.MountPath
	}
	volumes := map[string]corev1.Volume{}
	for _, v := range pod.Volumes {
		volumes[v.Name] = v
	}
	results, config := mounts["results"], mounts["config"]
	if v := volumes["results"]; v.PersistentVolumeClaim == nil || v.PersistentVolumeClaim.ClaimName != pvc.Name || results == "" {
		t.Errorf("the results volume is not the claim %q mounted in the container: %+v at %q", pvc.Name, v, results)
	}
	if v := volumes["config"]; v.ConfigMap == nil || config == "" {
		t.Errorf("the configuration is not a ConfigMap mounted in the container: %+v at %q", v, config)
	}

	// The command line is slurm-slice.sbatch's, with the slice from the
	// completion index, N from completions, and the output on the volume.
	got := slices.Concat(c.Command, c.Args)
	got = replaceAll(got, "$(JOB_COMPLETION_INDEX)", "I", strconv.Itoa(n), "N", results, "OUT", config+"/tournament.toml", "CONFIG")
	want := append([]string{"arena"}, shellWords(t, "slurm-slice.sbatch")...)
	want = replaceAll(want, "$SLURM_ARRAY_TASK_ID", "I", "$ARENA_SLICES", "N", "$ARENA_OUT", "OUT", "$ARENA_CONFIG", "CONFIG")
	if !slices.Equal(got, want) {
		t.Errorf("the pods run\n  %q\nslurm-slice.sbatch runs\n  %q", got, want)
	}
	if !slices.Contains(got, "I/N") {
		t.Errorf("the command line %q does not pass --shard I/N", got)
	}
}

// TestKubernetesMerge decodes the merge Job strictly and checks that it
// runs slurm-merge.sbatch's command on every slice of the Indexed Job.
func TestKubernetesMerge(t *testing.T) {
	var slicesJob batchv1.Job
	decodeStrict(t, documents(t, "k8s-slices.yaml")[1], &slicesJob)
	n := int(*slicesJob.Spec.Completions)
	docs := documents(t, "k8s-merge.yaml")
	if len(docs) != 1 {
		t.Fatalf("k8s-merge.yaml has %d documents, want one Job", len(docs))
	}
	var job batchv1.Job
	decodeStrict(t, docs[0], &job)
	pod := job.Spec.Template.Spec
	if job.Kind != "Job" || len(pod.Containers) != 1 || pod.RestartPolicy != corev1.RestartPolicyNever {
		t.Fatalf("want a Job of one container that is not restarted, got %s with %d containers, restart %q", job.Kind, len(pod.Containers), pod.RestartPolicy)
	}
	c := pod.Containers[0]
	if len(c.VolumeMounts) != 1 || len(pod.Volumes) != 1 || pod.Volumes[0].PersistentVolumeClaim == nil ||
		pod.Volumes[0].PersistentVolumeClaim.ClaimName != slicesJob.Spec.Template.Spec.Volumes[0].PersistentVolumeClaim.ClaimName {
		t.Errorf("the merge does not mount the slices' volume: %+v", pod.Volumes)
	}
	results := c.VolumeMounts[0].MountPath
	var sliceDirs []string
	for i := range n {
		sliceDirs = append(sliceDirs, results+"/slice-"+strconv.Itoa(i))
	}
	got := slices.Concat(c.Command, c.Args)
	want := append([]string{"arena"}, shellWords(t, "slurm-merge.sbatch")...)
	want = replaceAll(want, "$ARENA_OUT/merged", results+"/merged")
	if i := slices.Index(want, "$ARENA_OUT/slice-*/"); i >= 0 {
		want = slices.Concat(want[:i], sliceDirs, want[i+1:])
	}
	if !slices.Equal(got, want) {
		t.Errorf("the merge runs\n  %q\nwant (slurm-merge.sbatch's, on the %d slices)\n  %q", got, n, want)
	}
}

// replaceAll replaces, in each word, every old string of the pairs by its
// new one.
func replaceAll(words []string, pairs ...string) []string {
	r := strings.NewReplacer(pairs...)
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = r.Replace(w)
	}
	return out
}

// TestSlurmScripts checks the shell syntax of the Slurm scripts; the
// Slurm test in cmd/arena runs them on a real cluster.
func TestSlurmScripts(t *testing.T) {
	for _, name := range []string{"slurm-slice.sbatch", "slurm-merge.sbatch", "slurm-submit.sh", "slurm-sweep.sbatch"} {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(data, []byte("#!/bin/")) {
			t.Errorf("%s does not start with a #! line", name)
		}
		fi, _ := os.Stat(name)
		if fi.Mode()&0o111 == 0 {
			t.Errorf("%s is not executable", name)
		}
		shell := strings.TrimPrefix(strings.Fields(string(data))[0], "#!")
		if out, err := exec.Command(shell, "-n", name).CombinedOutput(); err != nil {
			t.Errorf("%s -n %s: %v\n%s", shell, name, err, out)
		}
	}
	if words := shellWords(t, "slurm-slice.sbatch"); !slices.Contains(words, "$SLURM_ARRAY_TASK_ID/$ARENA_SLICES") {
		t.Errorf("slurm-slice.sbatch runs %q, want --shard $SLURM_ARRAY_TASK_ID/$ARENA_SLICES", words)
	}
}
