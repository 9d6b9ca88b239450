# The image `reversi-lab cluster kubernetes` runs: `docker build -t IMAGE .` in the repository.
# Stage 1 builds the release binary; stage 2 carries only the binary on a slim Debian.
# The build targets x86-64-v3 (AVX2, BMI2: see .cargo/config.toml); for older nodes build with
#   docker build --build-arg RUSTFLAGS="-C target-cpu=x86-64" -t IMAGE .
FROM rust:1-bookworm AS build
ARG RUSTFLAGS=""
WORKDIR /src
COPY . .
# An empty RUSTFLAGS would override .cargo/config.toml, so it is set only when given.
RUN if [ -z "$RUSTFLAGS" ]; then unset RUSTFLAGS; fi; cargo build --release --locked --bin reversi-lab

FROM debian:bookworm-slim
COPY --from=build /src/target/release/reversi-lab /usr/local/bin/reversi-lab
WORKDIR /data
CMD ["reversi-lab", "--help"]
