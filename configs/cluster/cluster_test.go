package cluster_test

import (
	"bytes"
	"os"
	"os/exec"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
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
	for _, name := range []string{"slurm-slice.sbatch", "slurm-merge.sbatch", "slurm-submit.sh", "slurm-sweep.sbatch", "slurm-workers.sbatch"} {
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

// object is a document of a manifest, decoded strictly into its type.
type object struct {
	kind, name string
	obj        any
}

// objects decodes every document of a manifest strictly into the API
// type its kind names.
func objects(t *testing.T, name string) []object {
	t.Helper()
	var out []object
	for _, doc := range documents(t, name) {
		var tm metav1.TypeMeta
		if err := yaml.Unmarshal(doc, &tm); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var obj any
		switch tm.APIVersion + " " + tm.Kind {
		case "v1 PersistentVolumeClaim":
			obj = &corev1.PersistentVolumeClaim{}
		case "v1 Service":
			obj = &corev1.Service{}
		case "apps/v1 Deployment":
			obj = &appsv1.Deployment{}
		case "batch/v1 Job":
			obj = &batchv1.Job{}
		default:
			t.Fatalf("%s: a document of kind %s %s, which the test does not know", name, tm.APIVersion, tm.Kind)
		}
		decodeStrict(t, doc, obj)
		meta := reflect.ValueOf(obj).Elem().FieldByName("ObjectMeta").Interface().(metav1.ObjectMeta)
		if meta.Name == "" {
			t.Errorf("%s: a %s without a name", name, tm.Kind)
		}
		out = append(out, object{tm.Kind, meta.Name, obj})
	}
	return out
}

// find returns the object of kind and name, failing the test without it.
func find[T any](t *testing.T, objs []object, kind, name string) T {
	t.Helper()
	for _, o := range objs {
		if o.kind == kind && o.name == name {
			return o.obj.(T)
		}
	}
	t.Fatalf("no %s %s", kind, name)
	var zero T
	return zero
}

// checkPod checks what every pod of the manifests must have: an image
// with a tag of its own that is not pulled again when the node has it
// (a :latest tag, or imagePullPolicy Always, fails on an image loaded by
// hand into a cluster without a registry), memory requested and bounded,
// and the claims and config maps of its mounts declared as volumes.
func checkPod(t *testing.T, where string, pod corev1.PodSpec, image string) {
	t.Helper()
	volumes := map[string]bool{}
	for _, v := range pod.Volumes {
		volumes[v.Name] = true
	}
	for _, c := range pod.Containers {
		what := where + " container " + c.Name
		if c.Image != image {
			t.Errorf("%s: image %q, want %q, the one the Dockerfile's recipe builds", what, c.Image, image)
		}
		if _, tag, ok := strings.Cut(c.Image, ":"); !ok || tag == "latest" {
			t.Errorf("%s: image %q without a tag of its own", what, c.Image)
		}
		if c.ImagePullPolicy != corev1.PullIfNotPresent && c.ImagePullPolicy != corev1.PullNever {
			t.Errorf("%s: imagePullPolicy %q, want IfNotPresent (or Never)", what, c.ImagePullPolicy)
		}
		req, lim := c.Resources.Requests[corev1.ResourceMemory], c.Resources.Limits[corev1.ResourceMemory]
		if req.IsZero() || lim.IsZero() || req.Cmp(lim) > 0 {
			t.Errorf("%s: memory request %v and limit %v: want both, the request within the limit", what, &req, &lim)
		}
		if len(c.Command) == 0 || c.Command[0] != "arena" {
			t.Errorf("%s: command %q, want the arena", what, c.Command)
		}
		for _, m := range c.VolumeMounts {
			if !volumes[m.Name] {
				t.Errorf("%s: mounts %q, which is no volume of the pod", what, m.Name)
			}
		}
	}
}

// dockerfileImage returns the image the Dockerfile's recipe builds (the
// tag of its "docker build -t" line).
func dockerfileImage(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("../../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`docker build -t (\S+) \.`).FindSubmatch(data)
	if m == nil {
		t.Fatal("the Dockerfile's comment has no docker build -t IMAGE . line")
	}
	return string(m[1])
}

// TestKubernetesPods checks the pods of every manifest (checkPod) and
// that every Job is bounded in time and removed once finished.
func TestKubernetesPods(t *testing.T) {
	image := dockerfileImage(t)
	for _, file := range []string{"k8s-workers.yaml", "k8s-slices.yaml", "k8s-merge.yaml"} {
		claims := map[string]bool{}
		for _, o := range objects(t, file) {
			if pvc, ok := o.obj.(*corev1.PersistentVolumeClaim); ok {
				claims[pvc.Name] = true
			}
		}
		for _, o := range objects(t, file) {
			var pod corev1.PodSpec
			switch x := o.obj.(type) {
			case *appsv1.Deployment:
				pod = x.Spec.Template.Spec
				if x.Spec.Selector == nil || !labelsMatch(x.Spec.Selector.MatchLabels, x.Spec.Template.Labels) {
					t.Errorf("%s: Deployment %s: its selector %v does not select its pods %v", file, o.name, x.Spec.Selector, x.Spec.Template.Labels)
				}
			case *batchv1.Job:
				pod = x.Spec.Template.Spec
				if x.Spec.ActiveDeadlineSeconds == nil || x.Spec.TTLSecondsAfterFinished == nil {
					t.Errorf("%s: Job %s: activeDeadlineSeconds %v, ttlSecondsAfterFinished %v: want both", file, o.name, x.Spec.ActiveDeadlineSeconds, x.Spec.TTLSecondsAfterFinished)
				}
			default:
				continue
			}
			checkPod(t, file+": "+o.kind+" "+o.name, pod, image)
			for _, v := range pod.Volumes {
				if c := v.PersistentVolumeClaim; c != nil && !claims[c.ClaimName] && file != "k8s-merge.yaml" {
					t.Errorf("%s: %s %s: claim %q is not in the file", file, o.kind, o.name, c.ClaimName)
				}
			}
		}
	}
}

func labelsMatch(selector, labels map[string]string) bool {
	if len(selector) == 0 {
		return false
	}
	for k, v := range selector {
		if labels[k] != v {
			return false
		}
	}
	return true
}

// TestKubernetesWorkers checks that the workers' manifest wires its parts
// together: the NATS Service reaches the NATS pod on the port its server
// listens on, the coordinator and the workers connect to that Service,
// the coordinator reads the configuration from the ConfigMap and writes
// to a volume of its own, and no volume is shared (ReadWriteMany).
func TestKubernetesWorkers(t *testing.T) {
	objs := objects(t, "k8s-workers.yaml")
	nats := find[*appsv1.Deployment](t, objs, "Deployment", "arena-nats")
	svc := find[*corev1.Service](t, objs, "Service", "arena-nats")
	coord := find[*batchv1.Job](t, objs, "Job", "arena-coordinator")
	workers := find[*appsv1.Deployment](t, objs, "Deployment", "arena-workers")
	for _, o := range objs {
		if pvc, ok := o.obj.(*corev1.PersistentVolumeClaim); ok && slices.Contains(pvc.Spec.AccessModes, corev1.ReadWriteMany) {
			t.Errorf("claim %s is ReadWriteMany: workers share no volume", pvc.Name)
		}
	}

	// NATS: its server listens on the container port the Service targets.
	if !labelsMatch(svc.Spec.Selector, nats.Spec.Template.Labels) || len(svc.Spec.Ports) != 1 {
		t.Fatalf("Service %s selects %v with ports %v; the NATS pods are %v", svc.Name, svc.Spec.Selector, svc.Spec.Ports, nats.Spec.Template.Labels)
	}
	nc := nats.Spec.Template.Spec.Containers[0]
	port := svc.Spec.Ports[0]
	var target int32
	for _, p := range nc.Ports {
		if p.Name == port.TargetPort.String() || p.ContainerPort == port.TargetPort.IntVal {
			target = p.ContainerPort
		}
	}
	if target == 0 {
		t.Fatalf("the Service's target port %s is no port of the NATS container %v", port.TargetPort.String(), nc.Ports)
	}
	listen := slices.IndexFunc(nc.Args, func(a string) bool { return strings.HasPrefix(a, "listen://") })
	if nc.Args[0] != "nats" || listen < 0 || !strings.HasSuffix(nc.Args[listen], ":"+strconv.Itoa(int(target))) {
		t.Errorf("the NATS container runs %q, not arena nats listening on port %d", nc.Args, target)
	}
	if nats.Spec.Strategy.Type != appsv1.RecreateDeploymentStrategyType {
		t.Errorf("NATS's strategy is %q: two servers on one volume; want Recreate", nats.Spec.Strategy.Type)
	}

	url := "nats://" + svc.Name + ":" + strconv.Itoa(int(port.Port))
	cc := coord.Spec.Template.Spec.Containers[0]
	if i := slices.Index(cc.Args, "--workers"); cc.Args[0] != "run" || i < 0 || i+1 >= len(cc.Args) || cc.Args[i+1] != url {
		t.Errorf("the coordinator runs %q, want arena run --workers %s", cc.Args, url)
	}
	if pol := coord.Spec.Template.Spec.RestartPolicy; pol != corev1.RestartPolicyOnFailure {
		t.Errorf("the coordinator's restartPolicy is %q: want OnFailure, a coordinator started again resumes", pol)
	}
	mounts := map[string]string{}
	for _, m := range cc.VolumeMounts {
		mounts[m.Name] = m.MountPath
	}
	var configMount, outMount string
	for _, v := range coord.Spec.Template.Spec.Volumes {
		switch {
		case v.ConfigMap != nil:
			configMount = mounts[v.Name]
		case v.PersistentVolumeClaim != nil:
			outMount = mounts[v.Name]
		}
	}
	if configMount == "" || cc.Args[len(cc.Args)-1] != configMount+"/tournament.toml" {
		t.Errorf("the coordinator plays %q, not tournament.toml of a ConfigMap mounted at %q", cc.Args[len(cc.Args)-1], configMount)
	}
	if i := slices.Index(cc.Args, "--out"); outMount == "" || i < 0 || !strings.HasPrefix(cc.Args[i+1], outMount+"/") {
		t.Errorf("the coordinator writes to %q, not to its volume at %q", cc.Args, outMount)
	}

	wc := workers.Spec.Template.Spec.Containers[0]
	if len(wc.Args) < 2 || wc.Args[0] != "worker" || wc.Args[len(wc.Args)-1] != url {
		t.Errorf("the workers run %q, want arena worker %s", wc.Args, url)
	}
	if len(workers.Spec.Template.Spec.Volumes) != 0 {
		t.Errorf("the workers mount volumes %v; they need none", workers.Spec.Template.Spec.Volumes)
	}
}
