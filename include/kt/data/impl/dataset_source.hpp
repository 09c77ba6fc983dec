#pragma once
// A dataset behind a virtual interface, so kt::DataLoader<Device, X, Y> accepts any Dataset
// type. Collation writes the samples of a batch row after row into contiguous buffers: with
// the dataset's own `gather` when it has one (TensorDataset: one memcpy per row), else one
// get(i) per sample, each checked against the first sample's shapes.

#include "kt/core/impl/internal.hpp"

#include "kt/core/error.hpp"
#include "kt/core/impl/nested_error.hpp"
#include "kt/data/dataset.hpp"
#include "kt/tensor/shape.hpp"

#include <cstdint>
#include <cstring>
#include <exception>
#include <utility>

namespace kt::impl {

template <class X, class Y>
class DatasetSource {
public:
  virtual ~DatasetSource() = default;
  virtual std::int64_t size() const = 0;
  /// One sample's input and target shapes (rank 0 for an empty dataset).
  const Shape& input_shape() const { return input_shape_; }
  const Shape& target_shape() const { return target_shape_; }
  /// Writes samples indices[0..count) into `inputs` and `targets`, row after row.
  virtual void gather(const std::int64_t* indices, std::int64_t count, X* inputs, Y* targets) const = 0;
  /// True when gather() may run on several threads at once for disjoint rows of one batch.
  virtual bool gather_splits() const = 0;

protected:
  Shape input_shape_, target_shape_;
};

template <class Dataset, class X, class Y>
class DatasetSourceFor final : public DatasetSource<X, Y> {
public:
  explicit DatasetSourceFor(Dataset dataset) : dataset_(std::move(dataset)) {
    if constexpr (has_gather_v<Dataset>) {
      this->input_shape_ = Shape(dataset_.input_shape());
      this->target_shape_ = Shape(dataset_.target_shape());
    } else if (dataset_.size() > 0) {
      // Sample 0 fixes the shapes; its failure reaches the caller like any other sample's.
      try {
        const auto first = dataset_.get(0);
        KT_REQUIRE(first.input.defined() && first.target.defined(), "sample 0 has an undefined ",
                   first.input.defined() ? "target" : "input");
        this->input_shape_ = first.input.shape();
        this->target_shape_ = first.target.shape();
      } catch (...) {
        throw_nested_error(std::current_exception(), "kt::DataLoader: reading sample 0 (for the batch shapes) failed: ",
                           __FILE__, __LINE__);
      }
    }
  }

  std::int64_t size() const override { return dataset_.size(); }
  bool gather_splits() const override { return gather_is_plain_copy<Dataset>::value; }

  void gather(const std::int64_t* indices, std::int64_t count, X* inputs, Y* targets) const override {
    if constexpr (has_gather_v<Dataset>) {
      dataset_.gather(indices, count, inputs, targets);
    } else {
      const auto in_row = static_cast<std::size_t>(this->input_shape_.numel());
      const auto tg_row = static_cast<std::size_t>(this->target_shape_.numel());
      for (std::int64_t k = 0; k < count; ++k) {
        const auto sample = dataset_.get(indices[k]);
        KT_REQUIRE(sample.input.defined() && sample.target.defined(), "kt::DataLoader: sample ",
                   indices[k], " has an undefined ", sample.input.defined() ? "target" : "input");
        KT_REQUIRE(sample.input.shape() == this->input_shape_ && sample.target.shape() == this->target_shape_,
                   "kt::DataLoader: sample ", indices[k], " has input shape ", sample.input.shape().str(),
                   " and target shape ", sample.target.shape().str(), " but sample 0 has ",
                   this->input_shape_.str(), " and ", this->target_shape_.str(),
                   "; batches need equal shapes");
        if (in_row > 0)
          std::memcpy(inputs + static_cast<std::size_t>(k) * in_row, sample.input.data(), in_row * sizeof(X));
        if (tg_row > 0)
          std::memcpy(targets + static_cast<std::size_t>(k) * tg_row, sample.target.data(), tg_row * sizeof(Y));
      }
    }
  }

private:
  Dataset dataset_;
};

/// (n, dims...) from a sample shape.
inline Shape batch_shape(std::int64_t n, const Shape& sample) {
  auto dims = sample.dims();
  dims.insert(dims.begin(), n);
  return Shape(dims);
}

}  // namespace kt::impl
