# The arena's image: the arena as /usr/local/bin/arena (its built-in bots
# included), for a coordinator (arena run --workers), its workers (arena
# worker), a NATS server (arena nats) or slices (arena run --shard).
#
#   docker build -t arena:1 .
#
# Tag it with a version, not :latest, and load it where the cluster pulls
# from (configs/README.md, "Kubernetes"). Bots of your own go into an
# image built on this one, on the paths the configuration gives them:
#
#   FROM arena:1
#   COPY mybot /bots/mybot
#
# The images the build starts from can be changed, for a machine without
# access to a registry (CI makes both from what the machine has):
#
#   docker build --build-arg GO_IMAGE=... --build-arg BASE_IMAGE=... .
ARG GO_IMAGE=golang:1.26-bookworm
ARG BASE_IMAGE=debian:bookworm-slim

FROM ${GO_IMAGE} AS build
# The build stage's images are labelled, to be told apart and removed.
LABEL arena.stage=build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY arena arena
COPY bots bots
COPY cmd cmd
COPY configs configs
COPY protocol protocol
COPY reports reports
RUN CGO_ENABLED=0 go build -trimpath -o /out/arena ./cmd/arena

FROM ${BASE_IMAGE}
COPY --from=build /out/arena /usr/local/bin/arena
# The bots' and the workers' logs go to $TMPDIR; results to a volume
# mounted on /results.
ENV TMPDIR=/tmp
WORKDIR /results
ENTRYPOINT ["/usr/local/bin/arena"]
CMD ["help"]
